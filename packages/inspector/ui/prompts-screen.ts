/** The prompts screen: a searchable list, arguments, the prompt's messages. */
import { h, type ComponentChild } from 'preact';
import { useState } from 'preact/hooks';
import { api, type Json } from './api.js';
import { CompletingInput } from './completion.js';
import { ContentBlock } from './content.js';
import { SearchList, useList } from './lists.js';

export function PromptsPanel(): ComponentChild {
  const { items: prompts, error: promptsError } = useList('prompts/list', 'prompts');
  const [prompt, setPrompt] = useState<Json | undefined>();
  const [args, setArgs] = useState<Record<string, string>>({});
  const [got, setGot] = useState<Json | undefined>();
  const declared = (prompt?.['arguments'] as Json[] | undefined) ?? [];
  return h('section', { class: 'split' }, [
    h(SearchList, {
      items: prompts,
      error: promptsError,
      label: 'prompts',
      nameOf: (item) => String(item['name']),
      onPick: (item) => (setPrompt(item), setArgs({}), setGot(undefined)),
    }),
    prompt === undefined
      ? h('p', null, 'Pick a prompt.')
      : h('div', null, [
          h('h2', null, String(prompt['name'])),
          ...declared.map((arg) =>
            h(CompletingInput, {
              key: String(arg['name']),
              label: `${String(arg['name'])}${arg['required'] ? ' *' : ''}`,
              value: args[String(arg['name'])] ?? '',
              onInput: (value: string) => setArgs({ ...args, [String(arg['name'])]: value }),
              reference: { type: 'ref/prompt', name: prompt['name'] },
              argument: String(arg['name']),
              context: args,
            }),
          ),
          h(
            'button',
            {
              onClick: () =>
                void api('request', {
                  method: 'prompts/get',
                  params: { name: prompt['name'], arguments: args },
                }).then(setGot),
            },
            'Get prompt',
          ),
          got === undefined ? null : h(PromptResult, { got }),
        ]),
  ]);
}

/** The prompt's messages, each block rendered by type; an error as an alert. */
function PromptResult({ got }: { got: Json }): ComponentChild {
  if (got['error'] !== undefined)
    return h('p', { class: 'error', role: 'alert' }, `Error: ${JSON.stringify(got['error'])}`);
  const messages = ((got['result'] as Json | undefined)?.['messages'] as Json[] | undefined) ?? [];
  return h(
    'div',
    { 'data-testid': 'prompt-result' },
    messages.map((message, index) =>
      h('div', { class: 'message', key: index }, [
        h('strong', null, `${String(message['role'])}:`),
        h(ContentBlock, { block: (message['content'] ?? {}) as Json }),
      ]),
    ),
  );
}
