/**
 * The mapping core: a loaded description → the tools model (`ApiModel`), with the warnings met on the way.
 * `serve-openapi` serves the model; `generate` writes it out. A description with nothing servable is a
 * `DescriptionError`; a single operation that cannot be mapped is left out with a warning naming it.
 */
import { DescriptionError, pointerKey } from '../errors.js';
import type { LoadedDescription } from '../load/load.js';
import type { ApiModel, HttpMethod, OperationTool } from '../runtime/model.js';
import { envPrefix, operationName, uniqueNames } from './names.js';
import { DEFAULT_SETTINGS, mapOperation, type MapSettings } from './operation.js';
import { shorten } from './schema.js';
import { mapSchemes } from './security.js';

type Raw = Record<string, unknown>;

function isObject(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const METHODS: readonly HttpMethod[] = [
  'get',
  'put',
  'post',
  'delete',
  'patch',
  'head',
  'options',
  'trace',
];

export interface BuildOptions {
  /** Names the server and the environment-variable prefix (default: the description's title). */
  readonly name?: string;
  readonly settings?: Partial<MapSettings>;
}

export interface BuildResult {
  readonly api: ApiModel;
  readonly warnings: readonly string[];
}

/** The first server URL, variables set to their defaults, resolved against the description's own URL. */
export function serverUrlOf(servers: unknown, base: string | undefined): string | undefined {
  if (!Array.isArray(servers)) return undefined;
  for (const server of servers) {
    if (!isObject(server) || typeof server['url'] !== 'string') continue;
    let url = server['url'];
    const variables = isObject(server['variables']) ? server['variables'] : {};
    url = url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
      const variable = variables[name];
      return isObject(variable) && typeof variable['default'] === 'string' ? variable['default'] : whole;
    });
    if (/\{[^}]+\}/.test(url)) continue;
    try {
      const absolute = new URL(url, base);
      if (absolute.protocol === 'http:' || absolute.protocol === 'https:')
        return absolute.href.replace(/\/$/, '');
    } catch {
      // relative without a base: not usable
    }
  }
  return undefined;
}

export function buildApiModel(loaded: LoadedDescription, options: BuildOptions = {}): BuildResult {
  const doc = loaded.document;
  const settings: MapSettings = { ...DEFAULT_SETTINGS, ...options.settings };
  const warnings: string[] = [];
  const info = isObject(doc['info']) ? doc['info'] : {};
  const title =
    typeof info['title'] === 'string' && info['title'].trim() !== '' ? info['title'].trim() : 'API';
  const prefix = envPrefix(options.name ?? title);
  const components = isObject(doc['components']) ? doc['components'] : {};
  const { schemes, unsupported } = mapSchemes(components['securitySchemes'], prefix, loaded.baseUrl);
  for (const [name, why] of unsupported) warnings.push(`security scheme ${name}: ${why}`);
  const schemeNames = new Set(schemes.map((s) => s.name));
  const paths = doc['paths'];
  if (!isObject(paths) || Object.keys(paths).length === 0)
    throw new DescriptionError('the description has no operations ("paths" is missing or empty)', '/paths');

  const mapped: (Omit<OperationTool, 'name'> & { baseName: string })[] = [];
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const pointer = `/paths/${pointerKey(path)}/${method}`;
      if (operation['x-mcp'] === false || item['x-mcp'] === false) continue;
      try {
        const tool = mapOperation(method, path, operation, item, pointer, {
          settings,
          schemes: schemeNames,
          globalSecurity: doc['security'],
          serverUrl: (servers) => serverUrlOf(servers, loaded.baseUrl),
          warn: (message) => warnings.push(message),
        });
        mapped.push({ ...tool, baseName: operationName(operation, method, path) });
      } catch (error) {
        warnings.push(`${pointer}: left out: ${(error as Error).message}`);
      }
    }
  }
  if (mapped.length === 0)
    throw new DescriptionError('the description has no operations that can be served', '/paths');
  const names = uniqueNames(
    mapped.map((tool) => ({ name: tool.baseName, key: `${tool.method} ${tool.path}` })),
  );
  const tools: OperationTool[] = mapped.map(({ baseName: _base, ...tool }, i) => ({
    name: names[i]!,
    ...tool,
  }));
  const description = typeof info['description'] === 'string' ? shorten(info['description'], 500) : undefined;
  const baseUrl = serverUrlOf(doc['servers'], loaded.baseUrl);
  return {
    api: {
      title,
      version: typeof info['version'] === 'string' ? info['version'] : String(info['version'] ?? '0.0.0'),
      ...(description === undefined || description === '' ? {} : { description }),
      ...(baseUrl === undefined ? {} : { baseUrl }),
      envPrefix: prefix,
      schemes,
      tools,
    },
    warnings,
  };
}

/** Keeps the tools a selection names: tool names, `group:<tag>`, or `*` wildcards; exclusions win. */
export interface Selection {
  readonly include?: readonly string[];
  readonly exclude?: readonly string[];
}

function matcher(patterns: readonly string[]): (tool: OperationTool) => boolean {
  const tests = patterns.map((pattern) => {
    const group = pattern.startsWith('group:');
    const body = group ? pattern.slice(6) : pattern;
    const regex = new RegExp(`^${body.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i');
    return (tool: OperationTool) => regex.test(group ? tool.group : tool.name);
  });
  return (tool) => tests.some((test) => test(tool));
}

export function selectTools(tools: readonly OperationTool[], selection: Selection): OperationTool[] {
  const include =
    selection.include === undefined || selection.include.length === 0
      ? () => true
      : matcher(selection.include);
  const exclude = matcher(selection.exclude ?? []);
  return tools.filter((tool) => include(tool) && !exclude(tool));
}
