/** Lists of the server's items: every page fetched, searchable, virtualised. */
import { h, type ComponentChild } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, type Json } from './api.js';
import { VirtualList } from './virtual-list.js';

const ROW_HEIGHT = 32;
const LIST_HEIGHT = 480;

/** Every item of a paginated list (the backend follows `nextCursor`), and the error when listing failed. */
export function useList(method: string, key: string): { items: Json[]; error: string } {
  const [items, setItems] = useState<Json[]>([]);
  const [error, setError] = useState('');
  useEffect(() => {
    api('request', { method, params: {}, all: key }).then(
      (answer) => {
        if (answer['error'] !== undefined) setError(JSON.stringify(answer['error']));
        const result = answer['result'] as Json | undefined;
        const found = result?.[key];
        setItems(Array.isArray(found) ? (found as unknown[]).filter(isObject) : []);
      },
      (failure: Error) => setError(failure.message),
    );
  }, [method]);
  return { items, error };
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The first icon a server gave an item, when it is a `data:` image (the CSP loads no remote images, so a
 * server cannot make the inspector fetch anything).
 */
export function iconOf(item: Json | undefined): string | undefined {
  const icons = item?.['icons'];
  if (!Array.isArray(icons)) return undefined;
  for (const icon of icons as unknown[])
    if (
      isObject(icon) &&
      typeof icon['src'] === 'string' &&
      /^data:image\/(png|jpeg|gif|webp|svg\+xml);/.test(icon['src'])
    )
      return icon['src'];
  return undefined;
}

export function Icon({ item }: { item: Json | undefined }): ComponentChild {
  const src = iconOf(item);
  return src === undefined ? null : h('img', { class: 'icon', src, alt: '', width: 16, height: 16 });
}

export function SearchList(props: {
  items: Json[];
  label: string;
  nameOf: (item: Json) => string;
  onPick: (item: Json) => void;
  error?: string;
}): ComponentChild {
  const [query, setQuery] = useState('');
  const matches = useMemo(() => {
    const needle = query.toLowerCase();
    const found = props.items.filter((item) => JSON.stringify(item).toLowerCase().includes(needle));
    if (needle === '') return found;
    // Names first: the exact name, then names that start with the query, then names that contain it.
    const rank = (item: Json) => {
      const name = props.nameOf(item).toLowerCase();
      return name === needle ? 0 : name.startsWith(needle) ? 1 : name.includes(needle) ? 2 : 3;
    };
    return found
      .map((item, index) => ({ item, index, rank: rank(item) }))
      .sort((a, b) => a.rank - b.rank || a.index - b.index)
      .map(({ item }) => item);
  }, [props.items, query]);
  return h('div', { class: 'list' }, [
    h('input', {
      type: 'search',
      'aria-label': `Search ${props.label}`,
      placeholder: `Search ${props.items.length} ${props.label}`,
      value: query,
      onInput: (event: Event) => setQuery((event.target as HTMLInputElement).value),
    }),
    props.error ? h('p', { class: 'error', role: 'alert' }, props.error) : null,
    h(
      'p',
      { class: 'help', 'data-testid': `${props.label}-count` },
      `${matches.length} of ${props.items.length}`,
    ),
    h(VirtualList<Json>, {
      items: matches,
      rowHeight: ROW_HEIGHT,
      height: LIST_HEIGHT,
      label: props.label,
      keyOf: (item, index) => `${index}:${props.nameOf(item)}`,
      row: (item) =>
        h('button', { class: 'row-button', onClick: () => props.onPick(item) }, [
          h(Icon, { item }),
          props.nameOf(item),
        ]),
    }),
  ]);
}
