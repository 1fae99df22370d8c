/**
 * HTML helpers so data never becomes markup: `escapeHtml` for one value, the `html` tagged template (every
 * interpolated value is escaped unless it is itself `html`/`trustedHtml`), and `jsonForScript` to embed data in
 * an inline `<script>`.
 */

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** Escapes text for HTML content and quoted attribute values. `null`/`undefined` become the empty string. */
export function escapeHtml(value: unknown): string {
  if (value === null || value === undefined) return '';
  return String(value).replace(/[&<>"'`]/g, (c) => ESCAPES[c]!);
}

/** Markup that is already safe (built by `html` or explicitly trusted). */
export class SafeHtml {
  constructor(private readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

function render(value: unknown): string {
  if (value instanceof SafeHtml) return value.toString();
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === false) return '';
  return escapeHtml(value);
}

/**
 * Tagged template: `html\`<li>${name}</li>\`` escapes `name`. Arrays are joined (each item escaped unless it is
 * `html`), `null`, `undefined` and `false` render nothing. The result is a `SafeHtml`; `String(result)` gives the
 * markup.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!;
  return new SafeHtml(out);
}

/** Marks a string you wrote yourself (never data) as markup, to interpolate it into `html` unescaped. */
export function trustedHtml(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

/**
 * JSON for an inline `<script type="application/json">` or a script literal: `<`, `>`, `&`, U+2028 and U+2029
 * are escaped, so `</script>` or `<!--` in the data cannot end or change the script.
 */
export function jsonForScript(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
