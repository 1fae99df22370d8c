/** The server's own requests (sampling, elicitation), answered by the user. */
import { h, type ComponentChild } from 'preact';
import { useState } from 'preact/hooks';
import { api, type Ask, type Json } from './api.js';
import { contentText } from './content.js';
import { Field, initialValue, type Schema } from './schema-form.js';

/** The server's requests, answered by the user. */
export function Asks({ asks }: { asks: Ask[] }): ComponentChild {
  return h(
    'section',
    { class: 'asks', 'aria-live': 'polite' },
    asks.map((ask) =>
      ask.kind === 'sampling'
        ? h(SamplingAsk, { ask, key: ask.id })
        : h(ElicitationAsk, { ask, key: ask.id }),
    ),
  );
}

function SamplingAsk({ ask }: { ask: Ask }): ComponentChild {
  const [reply, setReply] = useState('');
  const messages = (ask.params['messages'] as Json[] | undefined) ?? [];
  return h('div', { class: 'ask', role: 'group', 'aria-label': 'Sampling request' }, [
    h('h2', null, 'The server asks for a model reply (sampling)'),
    ...messages.map((message) =>
      h('p', null, [h('strong', null, `${String(message['role'])}: `), contentText(message['content'])]),
    ),
    h('label', { class: 'field' }, [
      h('span', null, 'Your reply as the model'),
      h('textarea', {
        id: `sampling-reply-${ask.id}`,
        rows: 3,
        value: reply,
        onInput: (event: Event) => setReply((event.target as HTMLTextAreaElement).value),
      }),
    ]),
    h(
      'button',
      {
        onClick: () =>
          void api('answer', {
            id: ask.id,
            result: {
              role: 'assistant',
              content: { type: 'text', text: reply },
              model: 'inspector-user',
              stopReason: 'endTurn',
            },
          }),
      },
      'Send reply',
    ),
    h('button', { onClick: () => void api('answer', { id: ask.id, decline: true }) }, 'Decline'),
  ]);
}

function ElicitationAsk({ ask }: { ask: Ask }): ComponentChild {
  const schema = (ask.params['requestedSchema'] as Schema | undefined) ?? { type: 'object', properties: {} };
  const [content, setContent] = useState<unknown>(() => initialValue(schema));
  const url = ask.params['url'];
  return h('div', { class: 'ask', role: 'group', 'aria-label': 'Elicitation request' }, [
    h('h2', null, 'The server asks you (elicitation)'),
    h('p', null, String(ask.params['message'] ?? '')),
    typeof url === 'string' ? h('p', null, ['Open this address yourself: ', h('code', null, url)]) : null,
    typeof url === 'string'
      ? null
      : h(Field, { schema, value: content, onChange: setContent, path: `elicit-${ask.id}`, label: 'Answer' }),
    h(
      'button',
      {
        onClick: () =>
          void api('answer', {
            id: ask.id,
            result: typeof url === 'string' ? { action: 'accept' } : { action: 'accept', content },
          }),
      },
      'Accept',
    ),
    h(
      'button',
      { onClick: () => void api('answer', { id: ask.id, result: { action: 'decline' } }) },
      'Decline',
    ),
    h(
      'button',
      { onClick: () => void api('answer', { id: ask.id, result: { action: 'cancel' } }) },
      'Cancel',
    ),
  ]);
}
