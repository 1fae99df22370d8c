/**
 * A form generated from a JSON Schema: nested objects, arrays, enums, `oneOf`/`anyOf`, defaults and formats,
 * with a raw-JSON field wherever the schema says too little (or too much) for a form.
 */
import { h, type ComponentChild } from 'preact';
import { useState } from 'preact/hooks';

export type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  oneOf?: Schema[];
  anyOf?: Schema[];
  default?: unknown;
  format?: string;
  title?: string;
  description?: string;
};

/** The value a schema starts with: its default, else an empty value of its type. */
export function initialValue(schema: Schema | undefined): unknown {
  if (schema === undefined) return undefined;
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  const variants = schema.oneOf ?? schema.anyOf;
  if (variants !== undefined && variants.length > 0) return initialValue(variants[0]);
  switch (typeOf(schema)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(schema.properties ?? {})) {
        const value = initialValue(child);
        if (value !== undefined && (schema.required ?? []).includes(key)) out[key] = value;
        else if (child.default !== undefined) out[key] = child.default;
      }
      return out;
    }
    case 'array':
      return [];
    case 'boolean':
      return false;
    case 'string':
      return schema.enum === undefined ? '' : schema.enum[0];
    default:
      return schema.enum === undefined ? undefined : schema.enum[0];
  }
}

function typeOf(schema: Schema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((type) => type !== 'null');
  if (schema.type !== undefined) return schema.type;
  if (schema.properties !== undefined) return 'object';
  return undefined;
}

const INPUT_FOR_FORMAT: Record<string, string> = {
  date: 'date',
  'date-time': 'datetime-local',
  time: 'time',
  email: 'email',
  uri: 'url',
};

interface FieldProps {
  schema: Schema;
  value: unknown;
  onChange: (value: unknown) => void;
  /** Unique id prefix, so each label points at its own control. */
  path: string;
  label: string;
  required?: boolean;
}

export function Field(props: FieldProps): ComponentChild {
  const { schema, value, onChange, path, label } = props;
  const caption = `${schema.title ?? label}${props.required ? ' *' : ''}`;
  const help = schema.description ? h('small', { class: 'help' }, schema.description) : null;
  const variants = schema.oneOf ?? schema.anyOf;
  if (variants !== undefined && variants.length > 0) return h(VariantField, { ...props, variants });
  if (schema.enum !== undefined) {
    const index = schema.enum.findIndex((option) => JSON.stringify(option) === JSON.stringify(value));
    return h('label', { class: 'field' }, [
      h('span', null, caption),
      h(
        'select',
        {
          id: path,
          value: String(index),
          onChange: (event: Event) =>
            onChange(schema.enum![Number((event.target as HTMLSelectElement).value)]),
        },
        schema.enum.map((option, i) => h('option', { value: String(i) }, String(option))),
      ),
      help,
    ]);
  }
  switch (typeOf(schema)) {
    case 'boolean':
      return h('label', { class: 'field inline' }, [
        h('input', {
          id: path,
          type: 'checkbox',
          checked: value === true,
          onChange: (event: Event) => onChange((event.target as HTMLInputElement).checked),
        }),
        h('span', null, caption),
        help,
      ]);
    case 'number':
    case 'integer':
      return h('label', { class: 'field' }, [
        h('span', null, caption),
        h('input', {
          id: path,
          type: 'number',
          step: typeOf(schema) === 'integer' ? '1' : 'any',
          value: value === undefined ? '' : String(value),
          onInput: (event: Event) => {
            const text = (event.target as HTMLInputElement).value;
            onChange(text === '' ? undefined : Number(text));
          },
        }),
        help,
      ]);
    case 'string':
      return h('label', { class: 'field' }, [
        h('span', null, caption),
        h('input', {
          id: path,
          type: INPUT_FOR_FORMAT[schema.format ?? ''] ?? 'text',
          value: typeof value === 'string' ? value : '',
          onInput: (event: Event) => onChange((event.target as HTMLInputElement).value),
        }),
        help,
      ]);
    case 'object':
      return h('fieldset', { class: 'field' }, [
        h('legend', null, caption),
        help,
        ...Object.entries(schema.properties ?? {}).map(([key, child]) =>
          h(Field, {
            key,
            schema: child,
            label: key,
            path: `${path}.${key}`,
            required: (schema.required ?? []).includes(key),
            value: (value as Record<string, unknown> | undefined)?.[key],
            onChange: (next: unknown) => {
              const copy = { ...((value as Record<string, unknown> | undefined) ?? {}) };
              if (next === undefined) delete copy[key];
              else copy[key] = next;
              onChange(copy);
            },
          }),
        ),
      ]);
    case 'array': {
      const items = Array.isArray(value) ? value : [];
      const itemSchema = schema.items ?? {};
      return h('fieldset', { class: 'field' }, [
        h('legend', null, caption),
        help,
        ...items.map((item, index) =>
          h('div', { class: 'array-item', key: index }, [
            h(Field, {
              schema: itemSchema,
              label: `${label}[${index}]`,
              path: `${path}.${index}`,
              value: item,
              onChange: (next: unknown) => onChange(items.map((old, i) => (i === index ? next : old))),
            }),
            h(
              'button',
              { type: 'button', onClick: () => onChange(items.filter((_, i) => i !== index)) },
              `Remove ${label}[${index}]`,
            ),
          ]),
        ),
        h(
          'button',
          { type: 'button', onClick: () => onChange([...items, initialValue(itemSchema)]) },
          `Add to ${label}`,
        ),
      ]);
    }
    default:
      return h(RawJsonField, { ...props, caption });
  }
}

function VariantField(props: FieldProps & { variants: Schema[] }): ComponentChild {
  const { variants, path } = props;
  const [chosen, setChosen] = useState(0);
  const variant = variants[chosen] ?? {};
  return h('div', { class: 'field' }, [
    h('label', { class: 'field' }, [
      h('span', null, `${props.schema.title ?? props.label}: variant`),
      h(
        'select',
        {
          id: `${path}#variant`,
          value: String(chosen),
          onChange: (event: Event) => {
            const next = Number((event.target as HTMLSelectElement).value);
            setChosen(next);
            props.onChange(initialValue(variants[next]));
          },
        },
        variants.map((option, i) =>
          h('option', { value: String(i) }, option.title ?? typeOf(option) ?? `option ${i + 1}`),
        ),
      ),
    ]),
    h(Field, { ...props, schema: { ...variant, title: props.schema.title ?? props.label } }),
  ]);
}

/** A JSON text field: the value is parsed when the text is valid JSON. */
export function RawJsonField(props: FieldProps & { caption?: string }): ComponentChild {
  const [text, setText] = useState(props.value === undefined ? '' : JSON.stringify(props.value, null, 2));
  const [error, setError] = useState('');
  return h('label', { class: 'field' }, [
    h('span', null, `${props.caption ?? props.label} (JSON)`),
    h('textarea', {
      id: props.path,
      rows: 4,
      value: text,
      onInput: (event: Event) => {
        const next = (event.target as HTMLTextAreaElement).value;
        setText(next);
        if (next.trim() === '') {
          setError('');
          props.onChange(undefined);
          return;
        }
        try {
          props.onChange(JSON.parse(next));
          setError('');
        } catch (problem) {
          setError((problem as Error).message);
        }
      },
    }),
    error === '' ? null : h('small', { class: 'error', role: 'alert' }, error),
  ]);
}
