/**
 * Loading a description: a file or an http(s) URL, JSON or YAML, OpenAPI 3.0/3.1 or Swagger 2.0. Parsing,
 * bundling external `$ref`s and dereferencing are done by `@apidevtools/swagger-parser`; Swagger 2.0 is upgraded
 * with `@scalar/openapi-upgrader`. Remote `$ref`s are followed only when the description itself came from the
 * same origin (a local file never makes the generator fetch anything). Every failure becomes a
 * `DescriptionError` naming what and where.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { upgrade } from '@scalar/openapi-upgrader';
import { DescriptionError } from '../errors.js';

export const MAX_DESCRIPTION_BYTES = 64 * 1024 * 1024;

export interface LoadedDescription {
  /** The dereferenced OpenAPI 3.x document (a graph: shared and recursive schemas are shared objects). */
  readonly document: Record<string, unknown>;
  /** `openapi` version of the document as served (after any upgrade), and what the source declared. */
  readonly version: string;
  readonly sourceVersion: string;
  /** sha256 of the source bytes. */
  readonly sha256: string;
  /** The source as given (path or URL) and, for URLs, the URL relative servers resolve against. */
  readonly source: string;
  readonly baseUrl?: string;
  readonly bytes: number;
  /** The source text as read (a generated project keeps a copy for its mock-server test). */
  readonly text: string;
}

export interface LoadOptions {
  readonly cwd?: string;
  /** Default: the global fetch (tests inject one). */
  readonly fetch?: typeof fetch;
  readonly timeoutMs?: number;
}

function isUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

async function readSource(source: string, options: LoadOptions): Promise<{ text: string; location: string }> {
  if (isUrl(source)) {
    let response: Response;
    try {
      response = await (options.fetch ?? fetch)(source, {
        signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
        headers: { accept: 'application/json, application/yaml, text/yaml, */*;q=0.5' },
      });
    } catch (error) {
      throw new DescriptionError(`cannot fetch the description: ${(error as Error).message}`);
    }
    if (!response.ok) throw new DescriptionError(`fetching the description answered HTTP ${response.status}`);
    const length = Number(response.headers.get('content-length') ?? 0);
    if (length > MAX_DESCRIPTION_BYTES)
      throw new DescriptionError(`the description is larger than ${MAX_DESCRIPTION_BYTES} bytes`);
    const text = await response.text();
    if (Buffer.byteLength(text) > MAX_DESCRIPTION_BYTES)
      throw new DescriptionError(`the description is larger than ${MAX_DESCRIPTION_BYTES} bytes`);
    return { text, location: response.url || source };
  }
  const path = resolve(options.cwd ?? process.cwd(), source);
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new DescriptionError('not a file');
    size = info.size;
  } catch (error) {
    if (error instanceof DescriptionError) throw error;
    throw new DescriptionError(
      `cannot read the description: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`,
    );
  }
  if (size > MAX_DESCRIPTION_BYTES)
    throw new DescriptionError(`the description is larger than ${MAX_DESCRIPTION_BYTES} bytes`);
  return { text: await readFile(path, 'utf8'), location: path };
}

/** Turns a parser error into one line; YAML/JSON errors keep their line number. */
function parserMessage(error: unknown): { message: string; where?: string } {
  const raw = error instanceof Error ? error.message : String(error);
  const first = raw.split('\n').find((line) => line.trim() !== '') ?? raw;
  const position = /\((\d+):(\d+)\)/.exec(first);
  const line =
    /line (\d+)/i.exec(raw)?.[1] ?? (position ? `${position[1]}, column ${position[2]}` : undefined);
  const pointer = /pointer "([^"]+)"/.exec(raw)?.[1] ?? /\$ref[^"]*"([^"]+)"/.exec(raw)?.[1];
  const token = /Token "([^"]+)" does not exist/.exec(raw)?.[1];
  if (/is not a valid Openapi API definition/i.test(first))
    return { message: 'not an OpenAPI description (no "openapi" or "swagger" field)', where: '/' };
  const unsupported =
    /^Unsupported OpenAPI version: ([^\s.]+(?:\.[^\s.]+)*)\./.exec(first) ??
    /^Unrecognized Swagger version: (\S+?)\./.exec(first);
  if (unsupported !== null)
    return {
      message: `unsupported ${first.startsWith('Unrecognized') ? 'Swagger' : 'OpenAPI'} version "${unsupported[1]}" (Swagger 2.0 and OpenAPI 3.0–3.1 are)`,
      where: first.startsWith('Unrecognized') ? '/swagger' : '/openapi',
    };
  if (token !== undefined && pointer !== undefined)
    return { message: `unresolvable $ref "${pointer}": "${token}" does not exist` };
  return {
    message: first
      .replace(/^Error (parsing|resolving) /i, (m) => m.toLowerCase())
      .replace(/^(error parsing) \S+?: /, 'cannot parse the description: ')
      .replace(/\s*\(\d+:\d+\)\s*$/, '')
      .trim(),
    ...(line === undefined ? {} : { where: `line ${line}` }),
  };
}

export async function loadDescription(source: string, options: LoadOptions = {}): Promise<LoadedDescription> {
  const { text, location } = await readSource(source, options);
  const sha256 = createHash('sha256').update(text).digest('hex');
  const remote = isUrl(location);
  const origin = remote ? new URL(location).origin : undefined;
  const isRoot = (url: string) =>
    url === location || url === pathToFileURL(location).href || decodeURIComponent(url) === location;
  const http = remote
    ? {
        canRead: (file: { url: string }) => new URL(file.url).origin === origin,
        timeout: options.timeoutMs ?? 30_000,
      }
    : false;
  let bundled: Record<string, unknown>;
  try {
    bundled = (await SwaggerParser.bundle(location, {
      resolve: {
        // The source is already read: the parser gets its text instead of reading it again.
        source: { order: 0, canRead: (file: { url: string }) => isRoot(file.url), read: () => text },
        file: remote ? false : { order: 1 },
        http,
      },
    } as never)) as unknown as Record<string, unknown>;
  } catch (error) {
    const { message, where } = parserMessage(error);
    throw new DescriptionError(message, where);
  }
  if (typeof bundled !== 'object' || bundled === null || Array.isArray(bundled))
    throw new DescriptionError('not an OpenAPI description (the document is not an object)');
  const sourceVersion = String(bundled['openapi'] ?? bundled['swagger'] ?? '');
  if (bundled['openapi'] === undefined && bundled['swagger'] === undefined)
    throw new DescriptionError('not an OpenAPI description (no "openapi" or "swagger" field)', '/');
  if (bundled['swagger'] !== undefined && String(bundled['swagger']) !== '2.0')
    throw new DescriptionError(
      `unsupported Swagger version ${JSON.stringify(bundled['swagger'])} (2.0 and OpenAPI 3.x are)`,
      '/swagger',
    );
  if (bundled['openapi'] !== undefined && !/^3\.[01](\.\d+)?(-.+)?$/.test(String(bundled['openapi'])))
    throw new DescriptionError(
      `unsupported OpenAPI version ${JSON.stringify(bundled['openapi'])} (Swagger 2.0 and OpenAPI 3.0–3.1 are)`,
      '/openapi',
    );
  let document = bundled;
  if (document['swagger'] !== undefined) {
    try {
      document = upgrade(document as never, '3.0') as unknown as Record<string, unknown>;
    } catch (error) {
      throw new DescriptionError(`cannot convert Swagger 2.0 to OpenAPI 3: ${(error as Error).message}`);
    }
  }
  let dereferenced: Record<string, unknown>;
  try {
    dereferenced = (await SwaggerParser.dereference(
      document as never,
      {
        resolve: { file: false, http: false },
        dereference: { circular: true },
      } as never,
    )) as unknown as Record<string, unknown>;
  } catch (error) {
    const { message, where } = parserMessage(error);
    throw new DescriptionError(message, where);
  }
  return {
    document: dereferenced,
    version: String(dereferenced['openapi'] ?? ''),
    sourceVersion,
    sha256,
    source,
    ...(remote ? { baseUrl: location } : {}),
    bytes: Buffer.byteLength(text),
    text,
  };
}
