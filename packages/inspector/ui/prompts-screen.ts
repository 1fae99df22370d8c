/** The prompts screen: a searchable list, arguments, the prompt's messages. */
import { h, type ComponentChild } from 'preact';
import { useState } from 'preact/hooks';
import { api, type Json } from './api.js';
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
            h('label', { class: 'field' }, [
              h('span', null, `${String(arg['name'])}${arg['required'] ? ' *' : ''}`),
              h('input', {
                value: args[String(arg['name'])] ?? '',
                onInput: (event: Event) =>
                  setArgs({ ...args, [String(arg['name'])]: (event.target as HTMLInputElement).value }),
              }),
            ]),
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
          got === undefined ? null : h('pre', null, JSON.stringify(got, null, 2)),
        ]),
  ]);
}
