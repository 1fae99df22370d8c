/**
 * Strings that may refer to environment variables. The user writes references one way, `${NAME}` (in single
 * quotes on a shell command line; `$${` is a literal `${`), and each client descriptor spells them its own way
 * (`${env:NAME}`, `{env:NAME}`, `${input:NAME}`, `bearer_token_env_var`...). Reading a client's file back
 * yields the same parts, so `list` and `--verify` resolve references the way that client does.
 */

/** A reference to the variable `env` of the environment the client runs in. */
export interface EnvReference {
  readonly env: string;
  /** Used when the variable is unset (`${NAME:-fallback}`, where the client supports it). */
  readonly fallback?: string;
  /** A secret: never prompt for it or print it; clients with a secret store get it there (VS Code inputs). */
  readonly secret?: boolean;
}

/** A value the client asks the user for when it starts the server (VS Code `${input:ID}`). */
export interface InputReference {
  readonly input: string;
}

export type Part = string | EnvReference | InputReference;
export type Template = readonly Part[];

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function isEnvName(name: string): boolean {
  return NAME.test(name);
}

export function literal(text: string): Template {
  return text === '' ? [] : [text];
}

/** Parses the user's spelling: `${NAME}` references, `$${` for a literal `${`. */
export function parseTemplate(text: string, secret = false): Template {
  const parts: Part[] = [];
  let buffer = '';
  let i = 0;
  while (i < text.length) {
    if (text.startsWith('$${', i)) {
      buffer += '${';
      i += 3;
      continue;
    }
    if (text.startsWith('${', i)) {
      const end = text.indexOf('}', i + 2);
      const name = end === -1 ? '' : text.slice(i + 2, end);
      if (end === -1 || !NAME.test(name))
        throw new Error(
          `${JSON.stringify(text)}: "\${" must start a variable reference like \${API_KEY} (write $\${ for a literal "\${")`,
        );
      if (buffer !== '') parts.push(buffer);
      buffer = '';
      parts.push(secret ? { env: name, secret: true } : { env: name });
      i = end + 1;
      continue;
    }
    buffer += text[i];
    i++;
  }
  if (buffer !== '') parts.push(buffer);
  return parts;
}

export function isLiteral(template: Template): boolean {
  return template.every((part) => typeof part === 'string');
}

export function literalText(template: Template): string | undefined {
  return isLiteral(template) ? (template as string[]).join('') : undefined;
}

export function references(template: Template): (EnvReference | InputReference)[] {
  return template.filter((part): part is EnvReference | InputReference => typeof part !== 'string');
}

/** The template written back in the user's spelling, for messages and `list`. */
export function showTemplate(template: Template): string {
  return template
    .map((part) => {
      if (typeof part === 'string') return part.replaceAll('${', '$${');
      if ('input' in part) return `\${input:${part.input}}`;
      return part.fallback === undefined ? `\${${part.env}}` : `\${${part.env}:-${part.fallback}}`;
    })
    .join('');
}

/** The template as one reference and nothing else, e.g. `${API_KEY}`. */
export function soleReference(template: Template): EnvReference | undefined {
  const [only] = template;
  return template.length === 1 && only !== undefined && typeof only !== 'string' && 'env' in only
    ? only
    : undefined;
}

/** How one client spells references inside a string, and how it reads them back. */
export interface ReferenceSyntax {
  /** Shown in docs and errors, e.g. "${env:NAME}". */
  readonly example: string;
  write(reference: EnvReference): string;
  read(text: string): Template;
}

/** Builds a syntax from a writer and a pattern whose group 1 is the name (and group 2 an optional fallback). */
export function referenceSyntax(
  example: string,
  write: (reference: EnvReference) => string,
  pattern: RegExp,
  toPart: (match: RegExpExecArray) => Part = (match) =>
    match[2] === undefined ? { env: match[1]! } : { env: match[1]!, fallback: match[2] },
): ReferenceSyntax {
  return {
    example,
    write,
    read(text) {
      const parts: Part[] = [];
      const regex = new RegExp(pattern.source, 'g');
      let last = 0;
      for (let match = regex.exec(text); match !== null; match = regex.exec(text)) {
        if (match.index > last) parts.push(text.slice(last, match.index));
        parts.push(toPart(match));
        last = match.index + match[0].length;
      }
      if (last < text.length) parts.push(text.slice(last));
      return parts;
    },
  };
}

/** Writes a template in a client's syntax; literal text is kept as is. */
export function writeTemplate(template: Template, syntax: ReferenceSyntax): string {
  return template
    .map((part) => {
      if (typeof part === 'string') return part;
      if ('input' in part) throw new Error('an input reference cannot be written outside VS Code');
      return syntax.write(part);
    })
    .join('');
}

/** What resolving a template against an environment found missing. */
export interface Resolution {
  readonly value: string;
  readonly missing: readonly string[];
}

/**
 * Resolves references against `env` (VS Code inputs: from the variable of the same name, since the installer
 * cannot show VS Code's prompt). A missing variable resolves to "" and is reported.
 */
export function resolveTemplate(
  template: Template,
  env: Readonly<Record<string, string | undefined>>,
): Resolution {
  const missing: string[] = [];
  let value = '';
  for (const part of template) {
    if (typeof part === 'string') {
      value += part;
      continue;
    }
    const name = 'input' in part ? part.input : part.env;
    const found = env[name];
    if (found !== undefined && found !== '') value += found;
    else if ('env' in part && part.fallback !== undefined) value += part.fallback;
    else missing.push(name);
  }
  return { value, missing };
}

/** Names that usually hold credentials: their literal values are reported as written in plain text. */
export function looksSecret(name: string): boolean {
  return /token|secret|passw|api[-_]?key|^key$|_key$|auth|credential|cookie|session|private/i.test(name);
}
