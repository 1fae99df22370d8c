/**
 * Golden files: every client × platform × scenario rendered into a new file, compared byte for byte with
 * test/golden/<client>/<platform>-<scenario>.<ext> (or .refused.txt where the client cannot hold it), and each
 * result parsed back with an independent parser of its format (JSON.parse, smol-toml, yaml) and read back by
 * the descriptor. `UPDATE_GOLDEN=1 npx vitest run packages/installer/src/golden.test.ts` rewrites them; review
 * the diff.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { CLIENTS } from './clients/index.js';
import type { ClientDescriptor } from './clients/descriptor.js';
import { getIn } from './documents/document.js';
import { planAdd } from './edit.js';
import { InstallerError, PLATFORMS, SCOPES, type Platform, type ServerSpec } from './model.js';
import { pathContext } from './platform.js';
import { resolveTarget } from './target.js';
import { parseTemplate } from './template.js';

const GOLDEN = join(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'golden');
const UPDATE = process.env['UPDATE_GOLDEN'] === '1';

/** Fixed, non-existent homes, so paths are the same on every machine and nothing real is read. */
export function goldenEnv(platform: Platform): Record<string, string> {
  return platform === 'win32'
    ? {
        USERPROFILE: 'C:\\Users\\alice',
        APPDATA: 'C:\\Users\\alice\\AppData\\Roaming',
        LOCALAPPDATA: 'C:\\Users\\alice\\AppData\\Local',
      }
    : { HOME: platform === 'darwin' ? '/Users/alice' : '/home/alice' };
}

const CWD: Record<Platform, string> = {
  darwin: '/Users/alice/project',
  linux: '/home/alice/project',
  win32: 'C:\\work\\project',
};

const SCENARIOS: Record<string, ServerSpec> = {
  stdio: {
    transport: 'stdio',
    command: 'npx',
    args: [['-y'], ['@example/weather-mcp@1.2.0'], ['--units'], ['metric']],
    env: { LOG_LEVEL: ['info'] },
  },
  'stdio-secret': {
    transport: 'stdio',
    command: 'npx',
    args: [['-y'], ['@example/weather-mcp@1.2.0']],
    env: { WEATHER_API_KEY: parseTemplate('${WEATHER_API_KEY}', true), LOG_LEVEL: ['info'] },
  },
  http: {
    transport: 'http',
    url: ['https://mcp.example.com/mcp'],
    headers: { Authorization: parseTemplate('Bearer ${EXAMPLE_TOKEN}', true), 'X-Team': ['tools'] },
  },
  'http-plain': {
    transport: 'http',
    url: ['https://mcp.example.com/mcp'],
    headers: { 'X-Team': ['tools'] },
  },
  sse: {
    transport: 'sse',
    url: ['https://mcp.example.com/sse'],
    headers: { 'X-Team': ['tools'] },
  },
};

function extension(client: ClientDescriptor): string {
  return client.format === 'jsonc' ? 'json' : client.format;
}

function parseBack(client: ClientDescriptor, text: string): unknown {
  switch (client.format) {
    case 'json':
    case 'jsonc':
      return JSON.parse(text);
    case 'toml':
      return parseToml(text);
    case 'yaml':
      return parseYaml(text);
  }
}

function compare(file: string, actual: string): void {
  if (UPDATE) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  expect(existsSync(file), `golden file ${file} is missing (run with UPDATE_GOLDEN=1)`).toBe(true);
  expect(actual).toBe(readFileSync(file, 'utf8'));
}

describe.each(CLIENTS.map((client) => [client.id, client] as const))('%s', (_id, client) => {
  it.each(
    PLATFORMS.flatMap((platform) => Object.keys(SCENARIOS).map((scenario) => [platform, scenario] as const)),
  )('%s %s matches its golden file and parses back', async (platform, scenario) => {
    const spec = SCENARIOS[scenario]!;
    const target = resolveTarget(client, 'user', pathContext(platform, goldenEnv(platform), CWD[platform]));
    const base = join(GOLDEN, client.id, `${platform}-${scenario}`);
    let plan;
    try {
      plan = await planAdd(target, 'weather', spec, platform);
    } catch (error) {
      if (!(error instanceof InstallerError)) throw error;
      compare(`${base}.refused.txt`, `${error.message}\n`);
      expect(existsSync(`${base}.${extension(client)}`)).toBe(false);
      return;
    }
    compare(`${base}.${extension(client)}`, plan.after);
    const data = parseBack(client, plan.after);
    const entry = getIn(data, [...client.serversKey, 'weather']);
    expect(entry).toEqual(plan.entry);
    const read = client.read(entry);
    expect(read.transport === 'stdio' ? 'stdio' : 'remote').toBe(
      spec.transport === 'stdio' ? 'stdio' : 'remote',
    );
    if (read.transport === 'stdio' && spec.transport === 'stdio') {
      const flat = [
        read.command,
        ...read.args.map((arg) => arg.map((part) => (typeof part === 'string' ? part : '?')).join('')),
      ];
      expect(flat).toEqual(
        platform === 'win32' ? ['cmd', '/c', 'npx', ...flat.slice(3)] : ['npx', ...flat.slice(1)],
      );
      expect(Object.keys(read.env).sort()).toEqual(Object.keys(spec.env).sort());
    }
    if (read.transport !== 'stdio' && spec.transport !== 'stdio') {
      expect(read.url).toEqual(spec.url);
      expect(Object.keys(read.headers).sort()).toEqual(Object.keys(spec.headers).sort());
    }
  });
});

describe('configuration paths', () => {
  it('match test/golden/paths.json for every client, platform and scope', () => {
    const paths: Record<string, Record<string, Record<string, string>>> = {};
    for (const client of CLIENTS) {
      paths[client.id] = {};
      for (const platform of PLATFORMS) {
        const ctx = pathContext(platform, goldenEnv(platform), CWD[platform]);
        paths[client.id]![platform] = Object.fromEntries(
          SCOPES.filter((scope) => client.scopes[scope] !== undefined).map((scope) => [
            scope,
            client.scopes[scope]!(ctx),
          ]),
        );
      }
    }
    compare(join(GOLDEN, 'paths.json'), `${JSON.stringify(paths, null, 2)}\n`);
  });
});
