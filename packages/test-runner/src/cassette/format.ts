/**
 * Cassettes: a server's outbound HTTP, recorded once against the real upstream and replayed offline. This module
 * is shared by the runner and the preload hook that runs inside the server process, so it imports nothing but
 * Node built-ins.
 *
 * Secrets are redacted when recorded, never later: headers and query/JSON members whose names look secret
 * (authorization, cookie, token, key, secret, password, session, signature) become "[redacted]", and the values
 * of the environment variables the test names as secrets become `{{NAME}}` wherever they appear. A live request
 * is redacted the same way before it is looked up, so replay needs no credentials.
 */
export const CASSETTE_VERSION = 1;

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

export interface RecordedResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Record<string, string>;
  readonly body: string;
  /** `base64` for bodies that are not UTF-8 text. */
  readonly encoding: 'utf8' | 'base64';
}

export interface Interaction {
  readonly request: RecordedRequest;
  readonly response: RecordedResponse;
}

export interface CassetteFile {
  readonly version: number;
  readonly interactions: Interaction[];
}

/** One line of the journal the hook appends to while the server runs. */
export type JournalEntry =
  { readonly recorded: Interaction } | { readonly miss: RecordedRequest; readonly at: number };

export const ENV = {
  file: 'MCPENGINE_CASSETTE',
  mode: 'MCPENGINE_CASSETTE_MODE',
  journal: 'MCPENGINE_CASSETTE_JOURNAL',
  secrets: 'MCPENGINE_CASSETTE_SECRETS',
} as const;

const SECRET_NAME =
  /authorization|cookie|token|secret|passw(or)?d|api[-_]?key|apikey|session|signature|credential|x-api/i;
export const REDACTED = '[redacted]';

/** Replaces every secret value by `{{NAME}}` (longest first, so a secret inside another is not half-replaced). */
export function replaceSecrets(text: string, secrets: Readonly<Record<string, string>>): string {
  let out = text;
  const entries = Object.entries(secrets)
    .filter(([, value]) => value.length >= 4)
    .sort((a, b) => b[1].length - a[1].length);
  for (const [name, value] of entries) {
    out = out.split(value).join(`{{${name}}}`);
    const encoded = encodeURIComponent(value);
    if (encoded !== value) out = out.split(encoded).join(`{{${name}}}`);
  }
  return out;
}

export function redactHeaders(
  headers: Record<string, string>,
  secrets: Readonly<Record<string, string>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    out[lower] = SECRET_NAME.test(lower) ? REDACTED : replaceSecrets(value, secrets);
  }
  return out;
}

export function redactUrl(url: string, secrets: Readonly<Record<string, string>>): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return replaceSecrets(url, secrets);
  }
  for (const key of [...parsed.searchParams.keys()])
    if (SECRET_NAME.test(key)) parsed.searchParams.set(key, REDACTED);
  if (parsed.password !== '') parsed.password = 'redacted';
  return replaceSecrets(parsed.toString(), secrets);
}

/**
 * JSON members with secret-looking names lose their string and number values. Booleans and null carry no secret
 * and keep their type, so a replayed answer still matches its schema (n8n's `usedPrivateCredentials: false`).
 */
function redactJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactJson);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.entries(value).map(([key, member]) => [
        key,
        SECRET_NAME.test(key) && (typeof member === 'string' || typeof member === 'number')
          ? REDACTED
          : redactJson(member),
      ]),
    );
  return value;
}

/** JSON bodies lose secret-named members; form bodies secret-named fields; every body loses secret values. */
export function redactBody(
  body: string,
  contentType: string | undefined,
  secrets: Readonly<Record<string, string>>,
): string {
  let out = body;
  const type = contentType ?? '';
  if (/json/i.test(type) || /^\s*[{[]/.test(body)) {
    try {
      out = JSON.stringify(redactJson(JSON.parse(body)));
    } catch {
      // Not JSON after all.
    }
  } else if (/x-www-form-urlencoded/i.test(type)) {
    const form = new URLSearchParams(body);
    for (const key of [...form.keys()]) if (SECRET_NAME.test(key)) form.set(key, REDACTED);
    out = form.toString();
  }
  return replaceSecrets(out, secrets);
}

export function redactRequest(
  request: RecordedRequest,
  secrets: Readonly<Record<string, string>>,
): RecordedRequest {
  const headers = redactHeaders(request.headers, secrets);
  return {
    method: request.method.toUpperCase(),
    url: redactUrl(request.url, secrets),
    headers,
    ...(request.body === undefined || request.body === ''
      ? {}
      : { body: redactBody(request.body, headers['content-type'], secrets) }),
  };
}

export function redactResponse(
  response: RecordedResponse,
  secrets: Readonly<Record<string, string>>,
): RecordedResponse {
  const headers = redactHeaders(response.headers, secrets);
  return {
    ...response,
    headers,
    body:
      response.encoding === 'utf8'
        ? redactBody(response.body, headers['content-type'], secrets)
        : response.body,
  };
}

/** Values of the named variables, for redaction. */
export function secretValues(
  names: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = env[name];
    if (value !== undefined && value !== '') out[name] = value;
  }
  return out;
}

function sameBody(a: string | undefined, b: string | undefined): boolean {
  if ((a ?? '') === (b ?? '')) return true;
  try {
    return JSON.stringify(JSON.parse(a ?? '')) === JSON.stringify(JSON.parse(b ?? ''));
  } catch {
    return false;
  }
}

/** Finds the recorded answer for a (redacted) request: the first unused identical one, else a used one again. */
export class Player {
  readonly #interactions: readonly Interaction[];
  readonly #used = new Set<number>();

  constructor(cassette: CassetteFile) {
    this.#interactions = cassette.interactions;
  }

  find(request: RecordedRequest): Interaction | undefined {
    const candidates = this.#interactions
      .map((interaction, index) => ({ interaction, index }))
      .filter(
        ({ interaction }) =>
          interaction.request.method === request.method &&
          interaction.request.url === request.url &&
          sameBody(interaction.request.body, request.body),
      );
    const fresh = candidates.find(({ index }) => !this.#used.has(index)) ?? candidates.at(-1);
    if (fresh === undefined) return undefined;
    this.#used.add(fresh.index);
    return fresh.interaction;
  }
}

export function describeRequest(request: RecordedRequest): string {
  return `${request.method} ${request.url}${request.body === undefined ? '' : ` (body ${request.body.length > 120 ? `${request.body.slice(0, 120)}…` : request.body})`}`;
}
