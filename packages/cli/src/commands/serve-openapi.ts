/**
 * `mcpengine serve-openapi`: serve an OpenAPI description as an MCP server, on stdio or Streamable HTTP. The
 * options are checked here; `@mcpengine/generator` does the rest.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Selection, ServeOpenApiOptions } from '@mcpengine/generator';
import { UsageError, defineCommand, type OptionValues } from '../command.js';

const options = {
  'base-url': {
    type: 'string',
    value: '<url>',
    description: 'call the API here instead of the description’s servers',
  },
  header: {
    type: 'string',
    multiple: true,
    value: '"Name: value"',
    description: 'send this header with every API request (never logged)',
  },
  expose: {
    type: 'string',
    value: 'all|groups',
    description:
      'list every operation (all), or groups with a discovery tool (groups); default: groups above 40 operations',
  },
  select: {
    type: 'string',
    value: '<file>',
    description: 'a JSON file {"include": [...], "exclude": [...]} of tool names, group:<tag> or * patterns',
  },
  name: {
    type: 'string',
    value: '<name>',
    description: 'server name and environment-variable prefix (default: the title)',
  },
  http: { type: 'boolean', description: 'serve Streamable HTTP (both eras) and HTTP+SSE instead of stdio' },
  port: { type: 'string', value: '<n>', description: 'HTTP port (with --http; 0 picks a free one)' },
} as const;

export function parseHeaders(lines: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim();
    if (colon <= 0 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      throw new UsageError(
        `--header needs "Name: value", got ${JSON.stringify(line.length > 40 ? `${line.slice(0, 40)}…` : line)}`,
      );
    const value = line.slice(colon + 1).trim();
    if (/[\r\n\0]/.test(value)) throw new UsageError(`--header ${name}: the value contains a line break`);
    headers[name] = value;
  }
  return headers;
}

function readSelection(path: string, cwd: string): Selection {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(resolve(cwd, path), 'utf8'));
  } catch (error) {
    throw new UsageError(`--select ${path}: ${(error as Error).message}`);
  }
  const ok = (v: unknown) => v === undefined || (Array.isArray(v) && v.every((x) => typeof x === 'string'));
  if (
    typeof parsed !== 'object' ||
    parsed === null ||
    !ok((parsed as Selection).include) ||
    !ok((parsed as Selection).exclude)
  )
    throw new UsageError(
      `--select ${path}: expected {"include": ["name", "group:tag", "prefix*"], "exclude": [...]}`,
    );
  return parsed as Selection;
}

export function serveOptionsOf(
  spec: string,
  values: OptionValues<typeof options>,
  cwd: string,
): ServeOpenApiOptions {
  const baseUrl = values['base-url'];
  if (baseUrl !== undefined) {
    let url: URL;
    try {
      url = new URL(baseUrl);
    } catch {
      throw new UsageError(`--base-url: not an absolute URL: ${baseUrl}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new UsageError(`--base-url must be http or https, got ${url.protocol}`);
  }
  const expose = values.expose;
  if (expose !== undefined && expose !== 'all' && expose !== 'groups')
    throw new UsageError(`--expose must be all or groups, got ${expose}`);
  if (values.port !== undefined && !values.http) throw new UsageError('--port applies to --http only');
  let http: ServeOpenApiOptions['http'];
  if (values.http) {
    if (values.port === undefined) throw new UsageError('--http needs --port <n>');
    if (!/^\d+$/.test(values.port) || Number(values.port) > 65535)
      throw new UsageError(`--port must be a number from 0 to 65535, got ${values.port}`);
    http = { port: Number(values.port) };
  }
  return {
    spec,
    cwd,
    headers: parseHeaders(values.header ?? []),
    ...(baseUrl === undefined ? {} : { baseUrl }),
    ...(expose === undefined ? {} : { expose }),
    ...(values.select === undefined ? {} : { select: readSelection(values.select, cwd) }),
    ...(values.name === undefined ? {} : { name: values.name }),
    ...(http === undefined ? {} : { http }),
  };
}

export const serveOpenapi = defineCommand({
  name: 'serve-openapi',
  summary: 'serve an OpenAPI description as an MCP server (stdio or HTTP)',
  synopsis: ['<spec> [--base-url <url>] [--header "Name: value"]... [--expose all|groups] [--http --port N]'],
  description:
    'Serves every operation of an OpenAPI 3.0/3.1 or Swagger 2.0 description (a file or an http(s) URL, JSON or ' +
    'YAML) as an MCP tool, in every protocol revision. Credentials come from environment variables named after ' +
    'the description’s security schemes (see docs/generator.md); stdout carries protocol messages only.',
  options,
  positionals: { min: 1, max: 1 },
  exitCodes: [
    '0  served until the client closed stdin (or Ctrl-C with --http)',
    '2  usage error, a description that cannot be served, or missing credentials (one line says what and where)',
  ],
  examples: [
    'STRIPE_BEARERAUTH_TOKEN=sk_test_… mcpengine serve-openapi stripe.json',
    'mcpengine serve-openapi https://petstore3.swagger.io/api/v3/openapi.json --http --port 3000',
  ],
  async run({ positionals, values }, io) {
    const request = serveOptionsOf(positionals[0]!, values, io.cwd);
    const { serveOpenApi } = await import('@mcpengine/generator');
    return serveOpenApi(request, io);
  },
});
