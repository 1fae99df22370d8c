/**
 * Arguments → an HTTP request, following OpenAPI's serialisation rules: path styles (simple, label, matrix),
 * query styles (form, spaceDelimited, pipeDelimited, deepObject), headers, cookies, and bodies as JSON,
 * `application/x-www-form-urlencoded` (nested values in bracket notation), multipart (files as base64 or an
 * http(s) URL) or raw text/binary.
 */
import type { AppliedAuth } from './auth.js';
import type { BodyBinding, FieldEncoding, OperationTool, ParamBinding } from './model.js';

export interface BuiltRequest {
  readonly url: URL;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body?: string | FormData | Uint8Array;
  /**
   * What the runtime added from configuration (security schemes, `--header`): header names and query pairs.
   * A redirect to another origin strips them, so secrets reach only the host the user configured.
   */
  readonly configured?: {
    readonly headers: readonly string[];
    readonly query: readonly (readonly [string, string])[];
  };
}

/** Arguments that cannot be sent (a header with a line break, a path segment `..`): a tool error. */
export class ArgumentError extends Error {
  override readonly name = 'ArgumentError';
}

type Args = Readonly<Record<string, unknown>>;

function scalar(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null) return 'null';
  return JSON.stringify(value);
}

function encodePath(value: string, name: string): string {
  if (value === '.' || value === '..' || value === '')
    throw new ArgumentError(`path parameter ${name} cannot be ${JSON.stringify(value)}`);
  return encodeURIComponent(value);
}

function pathValue(binding: ParamBinding, value: unknown): string {
  const style = binding.style;
  const prefix = style === 'label' ? '.' : style === 'matrix' ? `;${binding.name}=` : '';
  if (binding.json) return prefix + encodePath(JSON.stringify(value), binding.name);
  if (Array.isArray(value)) {
    const parts = value.map((v) => encodePath(scalar(v), binding.name));
    if (style === 'matrix' && binding.explode) return parts.map((p) => `;${binding.name}=${p}`).join('');
    return prefix + parts.join(style === 'label' && binding.explode ? '.' : ',');
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    if (binding.explode) {
      const sep = style === 'label' ? '.' : style === 'matrix' ? ';' : ',';
      const body = entries
        .map(([k, v]) => `${encodeURIComponent(k)}=${encodePath(scalar(v), binding.name)}`)
        .join(sep);
      return (style === 'label' ? '.' : style === 'matrix' ? ';' : '') + body;
    }
    return (
      prefix +
      entries.flatMap(([k, v]) => [encodeURIComponent(k), encodePath(scalar(v), binding.name)]).join(',')
    );
  }
  return prefix + encodePath(scalar(value), binding.name);
}

/**
 * `deepObject`: `name[key]=value`, nested objects `name[a][b]=value`. OpenAPI defines one level of objects only;
 * deeper levels and arrays follow the bracket convention of Stripe and of `qs` (`items[0][price]=…`,
 * `expand[0]=…`), which is also what Prism's deepObject reader expects.
 */
function deepPairs(prefix: string, value: unknown, out: [string, string][]): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => deepPairs(`${prefix}[${i}]`, item, out));
  } else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) deepPairs(`${prefix}[${k}]`, v, out);
  } else out.push([prefix, scalar(value)]);
}

/**
 * A value serialised with an RFC 6570 style as a query string does it (query parameters, and form or multipart
 * body properties whose Encoding Object names a style): `form` (exploded: `a=1&a=2`, `k1=v1&k2=v2`; not:
 * `a=1,2`, `name=k1,v1,k2,v2`), `spaceDelimited` / `pipeDelimited` arrays, `deepObject`.
 */
export function styledPairs(
  name: string,
  value: unknown,
  style: string,
  explode: boolean,
): [string, string][] {
  if (style === 'deepObject' && typeof value === 'object' && value !== null) {
    const out: [string, string][] = [];
    deepPairs(name, value, out);
    return out;
  }
  if (Array.isArray(value)) {
    if (explode) return value.map((v) => [name, scalar(v)]);
    const sep = style === 'spaceDelimited' ? ' ' : style === 'pipeDelimited' ? '|' : ',';
    return [[name, value.map(scalar).join(sep)]];
  }
  if (typeof value === 'object' && value !== null) {
    if (explode) return Object.entries(value).map(([k, v]) => [k, scalar(v)]);
    return [
      [
        name,
        Object.entries(value)
          .flatMap(([k, v]) => [k, scalar(v)])
          .join(','),
      ],
    ];
  }
  return [[name, scalar(value)]];
}

function queryPairs(binding: ParamBinding, value: unknown): [string, string][] {
  if (binding.json) return [[binding.name, JSON.stringify(value)]];
  return styledPairs(binding.name, value, binding.style, binding.explode);
}

function headerValue(binding: ParamBinding, value: unknown): string {
  let text: string;
  if (binding.json) text = JSON.stringify(value);
  else if (Array.isArray(value)) text = value.map(scalar).join(',');
  else if (typeof value === 'object' && value !== null)
    text = Object.entries(value)
      .map(([k, v]) => (binding.explode ? `${k}=${scalar(v)}` : `${k},${scalar(v)}`))
      .join(',');
  else text = scalar(value);
  if (/[\r\n\0]/.test(text))
    throw new ArgumentError(`header parameter ${binding.name} cannot contain line breaks`);
  return text;
}

/** Joins the base URL (which may carry a path) and an expanded path template. */
export function joinUrl(base: string, path: string): URL {
  const trimmed = base.endsWith('/') ? base.slice(0, -1) : base;
  return new URL(`${trimmed}${path.startsWith('/') ? path : `/${path}`}`);
}

/** The property is written with an RFC 6570 style: its Encoding Object has `style`, `explode` or `allowReserved`. */
function styled(encoding: FieldEncoding | undefined): boolean {
  return (
    encoding !== undefined &&
    (encoding.style !== undefined || encoding.explode !== undefined || encoding.allowReserved !== undefined)
  );
}

/** A value written by its content type: JSON for JSON types (and objects by default), else as text. */
function contentValue(value: unknown, contentType: string | undefined): string {
  if (contentType !== undefined && /json/i.test(contentType)) return JSON.stringify(value);
  return scalar(value);
}

/**
 * Form fields of a urlencoded body (OpenAPI 3.0/3.1 Encoding Object rules). A property whose Encoding Object has
 * `style`, `explode` or `allowReserved` is serialised like a query parameter with that style (`style` defaults
 * to `form`, `explode` to true for `form`): Stripe's `deepObject` gives `metadata[key]=…`,
 * `items[0][price]=…`. Any other property is written by its content type (the Encoding Object's
 * `contentType`, else the default): objects as JSON, scalars as text; an array repeats its name per item.
 */
export function formPairs(
  body: Readonly<Record<string, unknown>>,
  fields: Readonly<Record<string, FieldEncoding>> = {},
): [string, string][] {
  const out: [string, string][] = [];
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined) continue;
    const encoding = Object.hasOwn(fields, key) ? fields[key] : undefined;
    if (encoding !== undefined && styled(encoding)) {
      const style = encoding.style ?? 'form';
      out.push(...styledPairs(key, value, style, encoding.explode ?? style === 'form'));
    } else if (Array.isArray(value)) {
      for (const item of value) out.push([key, contentValue(item, encoding?.contentType)]);
    } else out.push([key, contentValue(value, encoding?.contentType)]);
  }
  return out;
}

/** Loads a file argument: base64 text (a `data:` URL too) or an http(s) URL fetched with a size limit. */
export type FileLoader = (value: string, field: string) => Promise<Blob>;

function bodyValue(binding: BodyBinding, args: Args): unknown {
  if (binding.arg !== undefined) return args[binding.arg];
  const body: Record<string, unknown> = {};
  let any = false;
  for (const [arg, property] of binding.properties ?? []) {
    if (args[arg] !== undefined) {
      body[property] = args[arg];
      any = true;
    }
  }
  return any || binding.required ? body : undefined;
}

async function encodeBody(
  binding: BodyBinding,
  value: unknown,
  loadFile: FileLoader,
): Promise<{ body: string | FormData | Uint8Array; contentType?: string }> {
  switch (binding.encoding) {
    case 'json':
      return { body: JSON.stringify(value), contentType: binding.contentType };
    case 'form':
      return {
        body: new URLSearchParams(
          formPairs((value ?? {}) as Record<string, unknown>, binding.fields),
        ).toString(),
        contentType: binding.contentType,
      };
    case 'multipart': {
      // One part per property; an array repeats its name per item (RFC 7578). A property whose Encoding
      // Object names a style (OpenAPI 3.1) is split into parts like a form field (Stripe's `deepObject`).
      const form = new FormData();
      const files = new Set(binding.files ?? []);
      const fields = binding.fields ?? {};
      for (const [key, field] of Object.entries((value ?? {}) as Record<string, unknown>)) {
        if (field === undefined) continue;
        const encoding = Object.hasOwn(fields, key) ? fields[key] : undefined;
        if (files.has(key) && typeof field === 'string') form.append(key, await loadFile(field, key), key);
        else if (encoding !== undefined && styled(encoding))
          for (const [name, text] of formPairs({ [key]: field }, { [key]: encoding }))
            form.append(name, text);
        else if (Array.isArray(field))
          for (const item of field) form.append(key, contentValue(item, encoding?.contentType));
        else form.append(key, contentValue(field, encoding?.contentType));
      }
      // fetch sets the multipart boundary itself.
      return { body: form };
    }
    case 'binary': {
      const blob = await loadFile(scalar(value), binding.arg ?? 'body');
      return { body: new Uint8Array(await blob.arrayBuffer()), contentType: binding.contentType };
    }
    case 'text':
      return {
        body: typeof value === 'string' ? value : JSON.stringify(value),
        contentType: binding.contentType,
      };
  }
}

/** Builds the request of a call; `baseUrl` is the one that applies (override, operation server, default). */
export async function buildRequest(
  tool: OperationTool,
  args: Args,
  baseUrl: string,
  auth: AppliedAuth,
  extraHeaders: Readonly<Record<string, string>>,
  loadFile: FileLoader,
): Promise<BuiltRequest> {
  let path = tool.path;
  const query: [string, string][] = [];
  const headers: Record<string, string> = { accept: 'application/json, */*;q=0.5' };
  const cookies: [string, string][] = [];
  for (const binding of tool.params) {
    const value = args[binding.arg];
    if (value === undefined || value === null) {
      if (binding.in === 'path') throw new ArgumentError(`missing path parameter ${binding.arg}`);
      continue;
    }
    switch (binding.in) {
      case 'path':
        path = path.split(`{${binding.name}}`).join(pathValue(binding, value));
        break;
      case 'query':
        query.push(...queryPairs(binding, value));
        break;
      case 'header':
        headers[binding.name] = headerValue(binding, value);
        break;
      case 'cookie':
        cookies.push([binding.name, binding.json ? JSON.stringify(value) : scalar(value)]);
        break;
    }
  }
  const url = joinUrl(baseUrl, path);
  // A parameter named like a credential the call carries is left to the credential, as headers are: Trello
  // declares its key and token both as query parameters and as schemes, and a repeated key is an array to the API.
  const credential = (pairs: readonly [string, string][]) => new Set(pairs.map(([key]) => key));
  const queryCredentials = credential(auth.query);
  for (const [key, value] of [...query.filter(([key]) => !queryCredentials.has(key)), ...auth.query])
    url.searchParams.append(key, value);
  Object.assign(headers, extraHeaders, auth.headers);
  const cookieCredentials = credential(auth.cookies);
  const sentCookies = [...auth.cookies, ...cookies.filter(([key]) => !cookieCredentials.has(key))];
  if (sentCookies.length > 0)
    headers['cookie'] = sentCookies.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ');
  let body: BuiltRequest['body'];
  if (tool.body !== undefined) {
    const value = bodyValue(tool.body, args);
    if (value !== undefined) {
      const encoded = await encodeBody(tool.body, value, loadFile);
      body = encoded.body;
      if (encoded.contentType !== undefined) headers['content-type'] = encoded.contentType;
    }
  }
  const configured = {
    headers: [...Object.keys(extraHeaders), ...Object.keys(auth.headers)],
    query: auth.query,
  };
  return {
    url,
    method: tool.method.toUpperCase(),
    headers,
    ...(body === undefined ? {} : { body }),
    configured,
  };
}
