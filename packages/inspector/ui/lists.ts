/** Lists of the server's items: fetched once, searchable, windowed. */
import { h, type ComponentChild } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, type Json } from './api.js';

/** Shows at most this many list rows; search narrows the rest (1,000+ tools stay fast). */
const WINDOW = 100;

export function useList(method: string, key: string): Json[] {
  const [items, setItems] = useState<Json[]>([]);
  useEffect(() => {
    void api('request', { method, params: {} }).then((answer) => {
      const result = answer['result'] as Json | undefined;
      setItems((result?.[key] as Json[] | undefined) ?? []);
    });
  }, [method]);
  return items;
}

export function SearchList(props: {
  items: Json[];
  label: string;
  nameOf: (item: Json) => string;
  onPick: (item: Json) => void;
}): ComponentChild {
  const [query, setQuery] = useState('');
  const matches = useMemo(
    () => props.items.filter((item) => JSON.stringify(item).toLowerCase().includes(query.toLowerCase())),
    [props.items, query],
  );
  return h('div', { class: 'list' }, [
    h('input', {
      type: 'search',
      'aria-label': `Search ${props.label}`,
      placeholder: `Search ${props.items.length} ${props.label}`,
      value: query,
      onInput: (event: Event) => setQuery((event.target as HTMLInputElement).value),
    }),
    h(
      'ul',
      null,
      matches
        .slice(0, WINDOW)
        .map((item) =>
          h(
            'li',
            { key: props.nameOf(item) },
            h('button', { onClick: () => props.onPick(item) }, props.nameOf(item)),
          ),
        ),
    ),
    matches.length > WINDOW ? h('p', null, `${WINDOW} of ${matches.length} shown; search to narrow`) : null,
  ]);
}
