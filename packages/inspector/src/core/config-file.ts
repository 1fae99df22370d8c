/**
 * Saved servers: a local JSON config file in the shape MCP clients and the official Inspector use
 * (`--config <file> --server <name>`):
 *
 * ```json
 * { "mcpServers": {
 *     "everything": { "command": "node", "args": ["dist/main.js"], "env": { "DEBUG": "1" }, "cwd": "." },
 *     "remote": { "type": "streamable-http", "url": "https://example.com/mcp", "headers": { "X-Team": "a" } }
 * } }
 * ```
 *
 * `servers` (VS Code's key) is read too. The file is read once, at launch: the web page can pick one of these
 * servers by name, never add a command of its own.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { HttpTransportChoice, Target } from './target.js';

export interface NamedTarget {
  readonly name: string;
  readonly target: Target;
}

export class ConfigFileError extends Error {
  override readonly name = 'ConfigFileError';
}

const MAX_CONFIG_BYTES = 1024 * 1024;

export function loadConfigTargets(file: string, cwd: string): NamedTarget[] {
  const path = resolve(cwd, file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigFileError(`cannot read the config file ${path}: ${(error as Error).message}`);
  }
  if (text.length > MAX_CONFIG_BYTES) throw new ConfigFileError(`the config file ${path} is too large`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ConfigFileError(`the config file ${path} is not JSON: ${(error as Error).message}`);
  }
  const root = object(parsed, path);
  const servers = root['mcpServers'] ?? root['servers'];
  if (servers === undefined) throw new ConfigFileError(`${path} has no "mcpServers" object`);
  return Object.entries(object(servers, `${path}: mcpServers`)).map(([name, entry]) => ({
    name,
    target: targetOfEntry(object(entry, `${path}: server ${name}`), `${path}: server ${name}`, dirname(path)),
  }));
}

function object(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ConfigFileError(`${where} must be a JSON object`);
  return value as Record<string, unknown>;
}

function strings(value: unknown, where: string): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  const record = object(value, where);
  for (const [key, item] of Object.entries(record))
    if (typeof item !== 'string') throw new ConfigFileError(`${where}.${key} must be a string`);
  return record as Record<string, string>;
}

function targetOfEntry(entry: Record<string, unknown>, where: string, base: string): Target {
  const type = entry['type'] ?? entry['transport'];
  if (typeof entry['url'] === 'string') {
    const url = entry['url'];
    if (!/^https?:\/\//i.test(url)) throw new ConfigFileError(`${where}: url must be http(s), got ${url}`);
    const transport: HttpTransportChoice | undefined =
      type === undefined
        ? 'auto'
        : type === 'streamable-http' || type === 'http'
          ? 'streamable-http'
          : type === 'sse'
            ? 'sse'
            : undefined;
    if (transport === undefined)
      throw new ConfigFileError(`${where}: type must be streamable-http, http or sse, got ${String(type)}`);
    const headers = strings(entry['headers'], `${where}.headers`);
    return { kind: 'http', url, transport, ...(headers === undefined ? {} : { headers }) };
  }
  if (typeof entry['command'] !== 'string' || entry['command'] === '')
    throw new ConfigFileError(`${where} needs a "command" (stdio) or a "url" (HTTP)`);
  if (type !== undefined && type !== 'stdio')
    throw new ConfigFileError(`${where}: a command runs over stdio, not ${String(type)}`);
  const args = entry['args'] ?? [];
  if (!Array.isArray(args) || args.some((arg) => typeof arg !== 'string'))
    throw new ConfigFileError(`${where}: args must be an array of strings`);
  const env = strings(entry['env'], `${where}.env`);
  const cwd = entry['cwd'];
  if (cwd !== undefined && typeof cwd !== 'string')
    throw new ConfigFileError(`${where}: cwd must be a string`);
  return {
    kind: 'stdio',
    command: entry['command'],
    args: args as string[],
    ...(env === undefined ? {} : { env }),
    // Relative to the config file, as a config file is meant to be moved around with its project.
    cwd: cwd === undefined ? base : resolve(base, cwd),
  };
}
