/** The resources screen: resources, templates (variables with completion), reading, subscribing. */
import { h, type ComponentChild } from 'preact';
import { useState } from 'preact/hooks';
import { api, type Json } from './api.js';
import { CompletingInput, expandTemplate, templateVariables } from './completion.js';
import { ResourceContents } from './content.js';
import { SearchList, useList } from './lists.js';

export function ResourcesPanel({ state }: { state: Json }): ComponentChild {
  const { items: resources, error: resourcesError } = useList('resources/list', 'resources');
  const { items: templates } = useList('resources/templates/list', 'resourceTemplates');
  const [read, setRead] = useState<{ uri: string; answer: Json } | undefined>();
  const [template, setTemplate] = useState<Json | undefined>();
  const open = async (uri: string) =>
    setRead({ uri, answer: await api('request', { method: 'resources/read', params: { uri } }) });
  return h('section', { class: 'split' }, [
    h('div', null, [
      h(SearchList, {
        items: resources,
        error: resourcesError,
        label: 'resources',
        nameOf: (item) => String(item['uri']),
        onPick: (item) => (setTemplate(undefined), void open(String(item['uri']))),
      }),
      h('h3', null, 'Templates'),
      h(
        'ul',
        { 'aria-label': 'Templates' },
        templates.map((item) =>
          h(
            'li',
            { key: String(item['uriTemplate']) },
            h('button', { onClick: () => setTemplate(item) }, String(item['uriTemplate'])),
          ),
        ),
      ),
    ]),
    h('div', null, [
      template === undefined
        ? null
        : h(TemplateForm, {
            template,
            onRead: (uri: string) => void open(uri),
            key: String(template['uriTemplate']),
          }),
      read === undefined
        ? h('p', null, 'Pick a resource or a template.')
        : h('div', null, [
            h(Subscription, { uri: read.uri, state, key: read.uri }),
            read.answer['error'] !== undefined
              ? h('p', { class: 'error', role: 'alert' }, JSON.stringify(read.answer['error']))
              : h(ResourceContents, {
                  contents: ((read.answer['result'] as Json)['contents'] as Json[]) ?? [],
                }),
          ]),
    ]),
  ]);
}

function TemplateForm({
  template,
  onRead,
}: {
  template: Json;
  onRead: (uri: string) => void;
}): ComponentChild {
  const uriTemplate = String(template['uriTemplate']);
  const [values, setValues] = useState<Record<string, string>>({});
  return h('div', { class: 'template', role: 'group', 'aria-label': `Template ${uriTemplate}` }, [
    h('h2', null, String(template['title'] ?? template['name'] ?? uriTemplate)),
    h('p', null, h('code', null, uriTemplate)),
    ...templateVariables(uriTemplate).map((name) =>
      h(CompletingInput, {
        key: name,
        label: name,
        value: values[name] ?? '',
        onInput: (value: string) => setValues({ ...values, [name]: value }),
        reference: { type: 'ref/resource', uri: uriTemplate },
        argument: name,
        context: values,
      }),
    ),
    h('p', null, [
      'URI: ',
      h('code', { 'data-testid': 'expanded-uri' }, expandTemplate(uriTemplate, values)),
    ]),
    h('button', { onClick: () => onRead(expandTemplate(uriTemplate, values)) }, 'Read'),
  ]);
}

/** Legacy era: `resources/subscribe` when the server offers it; updates arrive as notifications (Logs tab). */
function Subscription({ uri, state }: { uri: string; state: Json }): ComponentChild {
  const [subscribed, setSubscribed] = useState(false);
  const [error, setError] = useState('');
  const resources = ((state['capabilities'] ?? {}) as Json)['resources'] as Json | undefined;
  if (state['era'] !== 'legacy' || resources?.['subscribe'] !== true) return null;
  const toggle = () =>
    api('request', {
      method: subscribed ? 'resources/unsubscribe' : 'resources/subscribe',
      params: { uri },
    }).then((answer) =>
      answer['error'] === undefined
        ? (setSubscribed(!subscribed), setError(''))
        : setError(JSON.stringify(answer['error'])),
    );
  return h('p', null, [
    h('button', { onClick: () => void toggle() }, subscribed ? 'Unsubscribe' : 'Subscribe to updates'),
    error === '' ? null : h('span', { class: 'error', role: 'alert' }, ` ${error}`),
  ]);
}
