/**
 * Format-preserving edits: other servers, unrelated settings, comments, indentation, line endings and order stay
 * exactly as they were; adding twice yields one entry; a file that does not parse is refused with file:line:col.
 */
import { mkdtempSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codex } from '../clients/codex.js';
import { claudeDesktop } from '../clients/claude-desktop.js';
import { cursor } from '../clients/cursor.js';
import type { ClientDescriptor } from '../clients/descriptor.js';
import { goose } from '../clients/goose.js';
import { vscode } from '../clients/vscode.js';
import { planAdd, planRemove } from '../edit.js';
import { ConfigParseError, InstallerError, type ServerSpec } from '../model.js';
import type { Target } from '../target.js';
import { parseTemplate } from '../template.js';

const dir = mkdtempSync(join(tmpdir(), 'installer-preserve-'));
let counter = 0;

async function fileWith(text: string, extension: string): Promise<string> {
  const file = join(dir, `config-${++counter}.${extension}`);
  await writeFile(file, text);
  return file;
}

const target = (client: ClientDescriptor, file: string): Target => ({ client, scope: 'user', file });

const WEATHER: ServerSpec = {
  transport: 'stdio',
  command: 'npx',
  args: [['-y'], ['weather-mcp']],
  env: { UNITS: ['metric'] },
};

describe('JSON and JSONC', () => {
  it('adds a server to a commented JSONC file, keeping comments, tabs, other servers and unrelated keys', async () => {
    const before = [
      '// Cursor MCP servers',
      '{',
      '\t"mcpServers": {',
      '\t\t// the file server',
      '\t\t"files": { "command": "files-mcp", "args": ["/srv"] }, // one line',
      '\t\t"git": {',
      '\t\t\t"command": "git-mcp"',
      '\t\t}',
      '\t},',
      '\t"theme": "dark" /* unrelated */',
      '}',
      '',
    ].join('\n');
    const plan = await planAdd(target(cursor, await fileWith(before, 'json')), 'weather', WEATHER, 'linux');
    expect(plan.after).toBe(
      [
        '// Cursor MCP servers',
        '{',
        '\t"mcpServers": {',
        '\t\t// the file server',
        '\t\t"files": { "command": "files-mcp", "args": ["/srv"] }, // one line',
        '\t\t"git": {',
        '\t\t\t"command": "git-mcp"',
        '\t\t},',
        '\t\t"weather": {',
        '\t\t\t"command": "npx",',
        '\t\t\t"args": ["-y", "weather-mcp"],',
        '\t\t\t"env": {',
        '\t\t\t\t"UNITS": "metric"',
        '\t\t\t}',
        '\t\t}',
        '\t},',
        '\t"theme": "dark" /* unrelated */',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('replaces an existing entry where it stands, and adding the same entry twice changes nothing', async () => {
    const before =
      '{\n  "mcpServers": {\n    "weather": { "command": "old" },\n    "after": { "command": "x" }\n  }\n}\n';
    const file = await fileWith(before, 'json');
    const first = await planAdd(target(cursor, file), 'weather', WEATHER, 'linux');
    expect(first.after).toBe(
      '{\n  "mcpServers": {\n    "weather": {\n      "command": "npx",\n      "args": ["-y", "weather-mcp"],\n      "env": {\n        "UNITS": "metric"\n      }\n    },\n    "after": { "command": "x" }\n  }\n}\n',
    );
    await writeFile(file, first.after);
    const second = await planAdd(target(cursor, file), 'weather', WEATHER, 'linux');
    expect(second.changed).toBe(false);
    expect(second.after).toBe(first.after);
    expect(second.diff).toBe('');
  });

  it('keeps CRLF line endings, a byte-order mark, and a one-line servers object', async () => {
    const before = '\uFEFF{\r\n  "mcpServers": { "a": { "command": "a" } },\r\n  "x": 1\r\n}\r\n';
    const plan = await planAdd(target(cursor, await fileWith(before, 'json')), 'weather', WEATHER, 'linux');
    expect(plan.after).toBe(
      '\uFEFF{\r\n  "mcpServers": { "a": { "command": "a" }, "weather": {"command":"npx","args":["-y","weather-mcp"],"env":{"UNITS":"metric"}} },\r\n  "x": 1\r\n}\r\n',
    );
  });

  it('creates the servers object in a file that has none, and fills an empty object', async () => {
    const plan = await planAdd(
      target(cursor, await fileWith('{\n  "other": true\n}\n', 'json')),
      'w',
      WEATHER,
      'linux',
    );
    expect(JSON.parse(plan.after)).toEqual({
      other: true,
      mcpServers: { w: { command: 'npx', args: ['-y', 'weather-mcp'], env: { UNITS: 'metric' } } },
    });
    expect(plan.after.startsWith('{\n  "other": true,\n  "mcpServers": {\n    "w": {')).toBe(true);
    const empty = await planAdd(target(cursor, await fileWith('{}', 'json')), 'w', WEATHER, 'linux');
    expect(JSON.parse(empty.after)).toEqual({ mcpServers: { w: expect.any(Object) } });
  });

  it('removes one server, keeping the rest and their comments', async () => {
    const before =
      '{\n  // keep me\n  "mcpServers": {\n    "a": { "command": "a" },\n    "weather": { "command": "w" },\n    "b": { "command": "b" } // b\n  }\n}\n';
    const plan = await planRemove(target(cursor, await fileWith(before, 'json')), 'weather');
    expect(plan.after).toBe(
      '{\n  // keep me\n  "mcpServers": {\n    "a": { "command": "a" },\n    "b": { "command": "b" } // b\n  }\n}\n',
    );
    const absent = await planRemove(target(cursor, await fileWith(before, 'json')), 'nope');
    expect(absent.entry).toBeUndefined();
    expect(absent.changed).toBe(false);
  });

  it('refuses comments and trailing commas in a strict JSON file, with the position', async () => {
    const comment = await fileWith('{\n  // no\n  "mcpServers": {}\n}\n', 'json');
    await expect(planAdd(target(claudeDesktop, comment), 'w', WEATHER, 'linux')).rejects.toThrow(
      `${comment}:2:3: a comment, which this file may not contain (this client reads strict JSON)`,
    );
    const comma = await fileWith('{\n  "mcpServers": {},\n}\n', 'json');
    await expect(planAdd(target(claudeDesktop, comma), 'w', WEATHER, 'linux')).rejects.toBeInstanceOf(
      ConfigParseError,
    );
    const array = await fileWith('[1]\n', 'json');
    await expect(planAdd(target(cursor, array), 'w', WEATHER, 'linux')).rejects.toThrow(
      'the top level is not a JSON object',
    );
    const wrong = await fileWith('{ "mcpServers": [] }\n', 'json');
    await expect(planAdd(target(cursor, wrong), 'w', WEATHER, 'linux')).rejects.toThrow(
      '"mcpServers" is not an object',
    );
  });

  it('VS Code: adds an input once per secret and removes it with the last server that uses it', async () => {
    const secret: ServerSpec = { ...WEATHER, env: { API_KEY: parseTemplate('${API_KEY}', true) } };
    const file = await fileWith(
      '{\n  "servers": {},\n  "inputs": [\n    { "type": "promptString", "id": "mine", "description": "kept", "password": true }\n  ]\n}\n',
      'json',
    );
    const one = await planAdd(target(vscode, file), 'one', secret, 'linux');
    await writeFile(file, one.after);
    const two = await planAdd(target(vscode, file), 'two', secret, 'linux');
    await writeFile(file, two.after);
    const data = JSON.parse(two.after) as {
      inputs: { id: string }[];
      servers: Record<string, { env: object }>;
    };
    expect(data.inputs.map((input) => input.id)).toEqual(['mine', 'API_KEY']);
    expect(data.servers['two']!.env).toEqual({ API_KEY: '${input:API_KEY}' });
    const removeOne = await planRemove(target(vscode, file), 'one');
    expect((JSON.parse(removeOne.after) as { inputs: unknown[] }).inputs).toHaveLength(2);
    await writeFile(file, removeOne.after);
    const removeTwo = await planRemove(target(vscode, file), 'two');
    expect(
      (JSON.parse(removeTwo.after) as { inputs: { id: string }[] }).inputs.map((input) => input.id),
    ).toEqual(['mine']);
  });
});

describe('TOML (Codex)', () => {
  const CONFIG = [
    '# Codex settings',
    'model = "gpt-5" # the default model',
    '',
    '[mcp_servers.docs]',
    'url = "https://docs.example.com/mcp" # remote',
    '',
    '[mcp_servers.docs.http_headers]',
    'X-Team = "tools"',
    '',
    '[profiles.fast]',
    'model = "gpt-5-mini"',
    '',
  ].join('\n');

  it('adds a server after the other servers, keeping comments and unrelated tables', async () => {
    const plan = await planAdd(target(codex, await fileWith(CONFIG, 'toml')), 'weather', WEATHER, 'linux');
    expect(plan.after).toBe(
      [
        '# Codex settings',
        'model = "gpt-5" # the default model',
        '',
        '[mcp_servers.docs]',
        'url = "https://docs.example.com/mcp" # remote',
        '',
        '[mcp_servers.docs.http_headers]',
        'X-Team = "tools"',
        '',
        '[mcp_servers.weather]',
        'command = "npx"',
        'args = ["-y", "weather-mcp"]',
        '',
        '[mcp_servers.weather.env]',
        'UNITS = "metric"',
        '',
        '[profiles.fast]',
        'model = "gpt-5-mini"',
        '',
      ].join('\n'),
    );
  });

  it('replaces a server in place and removes one without leaving gaps', async () => {
    const file = await fileWith(CONFIG, 'toml');
    const replaced = await planAdd(
      target(codex, file),
      'docs',
      { transport: 'http', url: ['https://docs.example.com/v2/mcp'], headers: {} },
      'linux',
    );
    expect(replaced.after).toBe(
      '# Codex settings\nmodel = "gpt-5" # the default model\n\n[mcp_servers.docs]\nurl = "https://docs.example.com/v2/mcp"\n\n[profiles.fast]\nmodel = "gpt-5-mini"\n',
    );
    const removed = await planRemove(target(codex, file), 'docs');
    expect(removed.after).toBe(
      '# Codex settings\nmodel = "gpt-5" # the default model\n\n[profiles.fast]\nmodel = "gpt-5-mini"\n',
    );
  });

  it('replaces an entry written as a key of [mcp_servers], and refuses one inside a single inline table', async () => {
    const keyed = await fileWith(
      '[mcp_servers]\nweather = { command = "old" }\nother = { command = "o" }\n',
      'toml',
    );
    const plan = await planAdd(target(codex, keyed), 'weather', WEATHER, 'linux');
    expect(plan.after).toBe(
      '[mcp_servers]\nother = { command = "o" }\n\n[mcp_servers.weather]\ncommand = "npx"\nargs = ["-y", "weather-mcp"]\n\n[mcp_servers.weather.env]\nUNITS = "metric"\n',
    );
    const inline = await fileWith('mcp_servers = { weather = { command = "old" } }\n', 'toml');
    await expect(planAdd(target(codex, inline), 'weather', WEATHER, 'linux')).rejects.toThrow(
      'is written as one inline table',
    );
  });

  it('keeps the spacing of the rest of the file when removing', async () => {
    const before =
      'a = 1\n\n\n# two blank lines above stay\n[mcp_servers.x]\ncommand = "x"\n\n[mcp_servers.y]\ncommand = "y"\n';
    const removed = await planRemove(target(codex, await fileWith(before, 'toml')), 'x');
    expect(removed.after).toBe('a = 1\n\n\n# two blank lines above stay\n\n[mcp_servers.y]\ncommand = "y"\n');
  });

  it('refuses a file that is not TOML, with the position', async () => {
    const file = await fileWith('model = "x"\n[mcp_servers.a\n', 'toml');
    const error = await planAdd(target(codex, file), 'w', WEATHER, 'linux').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigParseError);
    expect((error as ConfigParseError).line).toBeGreaterThanOrEqual(2);
  });
});

describe('YAML (Goose)', () => {
  it('adds and removes an extension, keeping comments and the built-in extensions', async () => {
    const before = [
      '# goose configuration',
      'GOOSE_PROVIDER: openai # provider',
      'extensions:',
      '  developer:',
      '    bundled: true # built in',
      '    enabled: true',
      '    name: developer',
      '    type: builtin',
      '',
    ].join('\n');
    const file = await fileWith(before, 'yaml');
    const added = await planAdd(target(goose, file), 'weather', WEATHER, 'linux');
    expect(added.after.startsWith(before.trimEnd())).toBe(true);
    expect(added.after).toContain('  weather:\n    name: weather\n    type: stdio\n    cmd: npx\n');
    await writeFile(file, added.after);
    const removed = await planRemove(target(goose, file), 'weather');
    expect(removed.after).toBe(before);
    const broken = await fileWith('extensions:\n  a: [\n', 'yaml');
    await expect(planAdd(target(goose, broken), 'w', WEATHER, 'linux')).rejects.toBeInstanceOf(
      ConfigParseError,
    );
  });
});

it('refuses what a client cannot hold, with the reason', async () => {
  const file = join(dir, 'none.json');
  await expect(
    planAdd(
      target(claudeDesktop, file),
      'w',
      { transport: 'http', url: ['https://x.example/mcp'], headers: {} },
      'darwin',
    ),
  ).rejects.toThrow('Settings → Connectors');
  await expect(
    planAdd(
      target(codex, join(dir, 'none.toml')),
      'w',
      { transport: 'sse', url: ['https://x.example/sse'], headers: {} },
      'linux',
    ),
  ).rejects.toBeInstanceOf(InstallerError);
});
