/** The resources screen: resources, templates, reading. */
import { h, type ComponentChild } from 'preact';
import { useState } from 'preact/hooks';
import { api, type Json } from './api.js';
import { ResourceContents } from './content.js';
import { SearchList, useList } from './lists.js';

export function ResourcesPanel(): ComponentChild {
  const { items: resources, error: resourcesError } = useList('resources/list', 'resources');
  const { items: templates } = useList('resources/templates/list', 'resourceTemplates');
  const [read, setRead] = useState<Json | undefined>();
  const open = async (uri: string) =>
    setRead(await api('request', { method: 'resources/read', params: { uri } }));
  return h('section', { class: 'split' }, [
    h('div', null, [
      h(SearchList, {
        items: resources,
        error: resourcesError,
        label: 'resources',
        nameOf: (item) => String(item['uri']),
        onPick: (item) => void open(String(item['uri'])),
      }),
      h('h3', null, 'Templates'),
      h(
        'ul',
        null,
        templates.map((item) => h('li', null, h('code', null, String(item['uriTemplate'])))),
      ),
    ]),
    read === undefined
      ? h('p', null, 'Pick a resource.')
      : read['error'] !== undefined
        ? h('p', { class: 'error' }, JSON.stringify(read['error']))
        : h(ResourceContents, { contents: ((read['result'] as Json)['contents'] as Json[]) ?? [] }),
  ]);
}
