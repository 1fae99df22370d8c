/**
 * An input that asks the server for completions (`completion/complete`) as the user types: prompt arguments
 * (`ref/prompt`) and resource template variables (`ref/resource`). Suggestions are a `<datalist>` (keyboard
 * accessible, no HTML from the server).
 */
import { h, type ComponentChild } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, type Json } from './api.js';

let lists = 0;

export function CompletingInput(props: {
  label: string;
  value: string;
  onInput: (value: string) => void;
  /** `{ type: 'ref/prompt', name }` or `{ type: 'ref/resource', uri }`. */
  reference: Json;
  argument: string;
  /** The other arguments filled so far (`context.arguments`). */
  context: Record<string, string>;
}): ComponentChild {
  const [listId] = useState(() => `completions-${++lists}`);
  const [values, setValues] = useState<string[]>([]);
  useEffect(() => {
    let current = true;
    const { [props.argument]: _self, ...others } = props.context;
    void api('request', {
      method: 'completion/complete',
      params: {
        ref: props.reference,
        argument: { name: props.argument, value: props.value },
        ...(Object.keys(others).length === 0 ? {} : { context: { arguments: others } }),
      },
    }).then(
      (answer) => {
        const found = ((answer['result'] as Json | undefined)?.['completion'] as Json | undefined)?.[
          'values'
        ];
        if (current)
          setValues(Array.isArray(found) ? found.filter((v) => typeof v === 'string').slice(0, 100) : []);
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [props.value]);
  return h('label', { class: 'field' }, [
    h('span', null, props.label),
    h('input', {
      list: listId,
      value: props.value,
      onInput: (event: Event) => props.onInput((event.target as HTMLInputElement).value),
    }),
    h(
      'datalist',
      { id: listId },
      values.map((value) => h('option', { value })),
    ),
    values.length === 0
      ? null
      : h(
          'span',
          { class: 'help', 'data-testid': `completions-${props.argument}` },
          `Suggestions: ${values.join(', ')}`,
        ),
  ]);
}

/** The variable names of an RFC 6570 template (`{id}`, `{+path}`, `{?q,lang}`). */
export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const match of template.matchAll(/\{([+#./;?&]?)([^}]*)\}/g))
    for (const name of match[2]!.split(',')) names.push(name.replace(/[*]|:\d+$/g, ''));
  return [...new Set(names.filter((name) => name !== ''))];
}

/** Expands a template with simple (level 1–3) semantics: values percent-encoded, `+`/`#` reserved kept. */
export function expandTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{([+#./;?&]?)([^}]*)\}/g, (_all, operator: string, list: string) => {
    const names = list.split(',').map((name) => name.replace(/[*]|:\d+$/g, ''));
    const encode = (value: string) =>
      operator === '+' || operator === '#' ? encodeURI(value) : encodeURIComponent(value);
    const parts = names.filter((name) => values[name] !== undefined && values[name] !== '');
    if (operator === '?' || operator === '&')
      return parts.length === 0
        ? ''
        : operator + parts.map((name) => `${name}=${encode(values[name]!)}`).join('&');
    const joined = parts.map((name) => encode(values[name]!)).join(',');
    if (joined === '') return '';
    return (operator === '+' ? '' : operator) + joined;
  });
}
