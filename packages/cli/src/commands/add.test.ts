/**
 * `mcpengine add`, `remove` and `list` through the command line frame, in a temporary home: usage errors, the
 * unparseable file left byte-identical, dry runs, backups, secrets, server.json values, listing and removal.
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli.js';
import type { CommandIo } from '../command.js';

interface Result {
  code: number;
  out: string;
  err: string;
}

function sandbox(): {
  home: string;
  project: string;
  run: (args: string[], env?: Record<string, string>) => Promise<Result>;
} {
  const home = mkdtempSync(join(tmpdir(), 'mcpengine-add-'));
  const project = join(home, 'project');
  mkdirSync(project);
  return {
    home,
    project,
    async run(args, env = {}) {
      let out = '';
      let err = '';
      const io: CommandIo = {
        stdout: (text) => void (out += text),
        stderr: (text) => void (err += text),
        env: { HOME: home, PATH: process.env['PATH'], ...env },
        cwd: project,
        isTTY: false,
        signal: new AbortController().signal,
      };
      const code = await runCli(args, io);
      return { code, out, err };
    },
  };
}

describe('mcpengine add: arguments', () => {
  it.each([
    [['add', 'x', '--', 'node'], '--client is required'],
    [
      ['add', 'x', '--client', 'nope', '--', 'node'],
      'unknown client "nope"; one of: claude-desktop, claude-code',
    ],
    [['add', 'x', '--client', 'cursor', '--url', 'http://a/mcp', '--', 'node'], 'give one source'],
    [['add', 'x', '--client', 'cursor', '--'], 'the command after -- is empty'],
    [
      ['add', 'x', '--client', 'cursor', '--scope', 'global', '--', 'node'],
      '--scope must be user or project',
    ],
    [
      ['add', 'x', '--client', 'cursor', '--platform', 'beos', '--', 'node'],
      '--platform must be one of darwin, win32, linux',
    ],
    [
      ['add', 'x', '--client', 'cursor', '--transport', 'sse', '--', 'node'],
      '--transport applies to --url and --from',
    ],
    [['add', 'x', '--client', 'cursor', '--env', '1A=b', '--', 'node'], '--env needs KEY=VALUE'],
    [
      ['add', 'x', '--client', 'cursor', '--url', 'http://a/mcp', '--header', 'nocolon'],
      '--header needs "Name: value"',
    ],
    [['add', 'x', '--client', 'cursor', '--url', 'ftp://a/mcp'], '--url must be http or https'],
    [['add', 'bad name', '--client', 'cursor', '--', 'node'], 'invalid server name "bad name"'],
    [['add', 'x', '--client', 'cursor', '--env', 'A=${', '--', 'node'], 'must start a variable reference'],
    [
      [
        'add',
        'x',
        '--client',
        'cursor',
        '--verify',
        '--platform',
        process.platform === 'win32' ? 'linux' : 'win32',
        '--',
        'node',
      ],
      '--verify starts the server here',
    ],
    [['add', 'nothing-here', '--client', 'cursor'], 'is not a fleet server'],
  ])('%j fails with exit code 2: %s', async (args, message) => {
    const { run, home } = sandbox();
    const result = await run(args, { MCPENGINE_FLEET_DIR: join(home, 'no-fleet') });
    expect(result.err).toContain(message);
    expect(result.code).toBe(2);
    expect(result.out).toBe('');
  });

  it('lists the clients and exit codes in its help', async () => {
    const { run } = sandbox();
    const help = await run(['add', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain(
      'Clients: claude-desktop, claude-code, cursor, vscode, windsurf, cline, codex, gemini, zed, goose,',
    );
    expect(help.out).toContain('1  --verify failed');
  });
});

describe('mcpengine add: files', () => {
  it('never touches a file it cannot parse: exit 2, file:line:col, bytes unchanged, nothing beside it', async () => {
    const { run, home } = sandbox();
    const dir = join(home, '.cursor');
    mkdirSync(dir);
    const file = join(dir, 'mcp.json');
    const broken = '{\n  "mcpServers": {\n    "a": { "command": "a" }\n  \n';
    writeFileSync(file, broken);
    const result = await run(['add', 'w', '--client', 'cursor', '--', 'npx', '-y', 'w']);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(
      new RegExp(`${file.replaceAll('/', '\\/')}:5:1: not valid JSON .*The file was not changed`),
    );
    expect(readFileSync(file, 'utf8')).toBe(broken);
    expect(readdirSync(dir)).toEqual(['mcp.json']);
  });

  it('writes, keeps a backup of the previous file, says when nothing changes, and prints a diff on --dry-run', async () => {
    const { run, home } = sandbox();
    const file = join(home, '.gemini', 'settings.json');
    mkdirSync(join(home, '.gemini'));
    writeFileSync(file, '{\n  "theme": "dark"\n}\n', { mode: 0o600 });
    const dry = await run(['add', 'w', '--client', 'gemini', '--dry-run', '--', 'npx', '-y', 'w']);
    expect(dry.code).toBe(0);
    expect(dry.out).toContain(`--- ${file}\n+++ ${file}\n`);
    expect(dry.out).toContain('+  "mcpServers": {');
    expect(dry.out).toContain('(dry run: nothing written');
    expect(readFileSync(file, 'utf8')).toBe('{\n  "theme": "dark"\n}\n');
    const first = await run(['add', 'w', '--client', 'gemini', '--', 'npx', '-y', 'w']);
    expect(first.out).toContain(`Added "w" in Gemini CLI (user scope): ${file}`);
    expect(first.out).toContain(`backup of the previous file: ${file}.mcpengine.bak`);
    expect(readFileSync(`${file}.mcpengine.bak`, 'utf8')).toBe('{\n  "theme": "dark"\n}\n');
    expect(lstatSync(file).mode & 0o777).toBe(0o600);
    const again = await run(['add', 'w', '--client', 'gemini', '--', 'npx', '-y', 'w']);
    expect(again.out).toContain('Up to date: "w" is already in Gemini CLI');
    const updated = await run(['add', 'w', '--client', 'gemini', '--', 'npx', '-y', 'w2']);
    expect(updated.out).toContain('Updated "w"');
    const data = JSON.parse(readFileSync(file, 'utf8')) as { theme: string; mcpServers: object };
    expect(data).toEqual({ theme: 'dark', mcpServers: { w: { command: 'npx', args: ['-y', 'w2'] } } });
  });

  it('writes through a symlink, leaving the link in place', async () => {
    const { run, home } = sandbox();
    mkdirSync(join(home, 'dotfiles'));
    mkdirSync(join(home, '.cursor'));
    writeFileSync(join(home, 'dotfiles', 'mcp.json'), '{}\n');
    symlinkSync(join(home, 'dotfiles', 'mcp.json'), join(home, '.cursor', 'mcp.json'));
    const result = await run(['add', 'w', '--client', 'cursor', '--', 'w-mcp']);
    expect(result.code).toBe(0);
    expect(lstatSync(join(home, '.cursor', 'mcp.json')).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(join(home, 'dotfiles', 'mcp.json'), 'utf8'))).toEqual({
      mcpServers: { w: { command: 'w-mcp', args: [] } },
    });
  });

  it('keeps secrets as references, and says when a value that looks secret is written in plain text', async () => {
    const { run, home } = sandbox();
    const referenced = await run([
      'add',
      'gh',
      '--client',
      'cursor',
      '--env',
      'GITHUB_TOKEN',
      '--',
      'npx',
      '-y',
      'gh-mcp',
    ]);
    expect(referenced.code).toBe(0);
    expect(readFileSync(join(home, '.cursor', 'mcp.json'), 'utf8')).toContain(
      '"GITHUB_TOKEN": "${env:GITHUB_TOKEN}"',
    );
    expect(referenced.out).not.toContain('plain text');
    const literal = await run([
      'add',
      'gh',
      '--client',
      'cursor',
      '--env',
      'GITHUB_TOKEN=ghp_123',
      '--',
      'npx',
      '-y',
      'gh-mcp',
    ]);
    expect(literal.out).toContain('note: env GITHUB_TOKEN is written in plain text, as you passed it');
    const refused = await run([
      'add',
      'gh',
      '--client',
      'claude-desktop',
      '--env',
      'GITHUB_TOKEN',
      '--',
      'npx',
      '-y',
      'gh-mcp',
    ]);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('Claude Desktop cannot refer to environment variables in env GITHUB_TOKEN');
  });

  it('writes project scope under the working directory and refuses a scope the client does not have', async () => {
    const { run, project } = sandbox();
    const result = await run([
      'add',
      'w',
      '--client',
      'claude-code',
      '--scope',
      'project',
      '--',
      'npx',
      '-y',
      'w',
    ]);
    expect(result.code).toBe(0);
    expect(JSON.parse(readFileSync(join(project, '.mcp.json'), 'utf8'))).toEqual({
      mcpServers: { w: { type: 'stdio', command: 'npx', args: ['-y', 'w'] } },
    });
    expect(result.out).toContain('Claude Code asks each user to approve project servers');
    const none = await run([
      'add',
      'w',
      '--client',
      'windsurf',
      '--scope',
      'project',
      '--',
      'npx',
      '-y',
      'w',
    ]);
    expect(none.code).toBe(2);
    expect(none.err).toContain('Windsurf has no project-scope configuration file (it has user scope only)');
  });

  it('writes the Windows layout with --platform win32: cmd /c for npx, the MSIX path for Claude Desktop', async () => {
    const { run, home } = sandbox();
    const local = join(home, 'Local');
    mkdirSync(join(local, 'Packages', 'Claude_pzs8sxrjxfjjc'), { recursive: true });
    const result = await run(
      ['add', 'w', '--client', 'claude-desktop', '--platform', 'win32', '--', 'npx', '-y', 'w'],
      {
        USERPROFILE: home,
        LOCALAPPDATA: local,
        APPDATA: join(home, 'Roaming'),
      },
    );
    expect(result.code).toBe(0);
    const file = join(
      local,
      'Packages',
      'Claude_pzs8sxrjxfjjc',
      'LocalCache',
      'Roaming',
      'Claude',
      'claude_desktop_config.json',
    );
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      mcpServers: { w: { command: 'cmd', args: ['/c', 'npx', '-y', 'w'] } },
    });
    expect(existsSync(join(home, 'Roaming'))).toBe(false);
  });
});

describe('mcpengine add --from server.json', () => {
  const SERVER = {
    $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
    name: 'io.example/weather',
    description: 'Weather',
    version: '1.2.0',
    packages: [
      {
        registryType: 'npm',
        identifier: '@example/weather-mcp',
        version: '1.2.0',
        transport: { type: 'stdio' },
        packageArguments: [{ type: 'named', name: '--units', default: 'metric', isRequired: true }],
        environmentVariables: [
          { name: 'WEATHER_API_KEY', isRequired: true, isSecret: true, description: 'API key' },
          { name: 'WEATHER_REGION', isRequired: true, description: 'Region', choices: ['eu', 'us'] },
          { name: 'WEATHER_DEBUG', description: 'optional' },
        ],
      },
    ],
    remotes: [
      {
        type: 'streamable-http',
        url: 'https://{tenant}.weather.example/mcp',
        variables: { tenant: { isRequired: true, description: 'your tenant' } },
        headers: [{ name: 'X-Api-Key', isRequired: true, isSecret: true }],
      },
    ],
  };

  function withServerJson(): ReturnType<typeof sandbox> & { file: string } {
    const box = sandbox();
    const file = join(box.project, 'server.json');
    writeFileSync(file, JSON.stringify(SERVER));
    return { ...box, file };
  }

  it('without a terminal, lists every missing value with the flag that supplies it', async () => {
    const { run } = withServerJson();
    const result = await run(['add', 'weather', '--client', 'cursor', '--from', 'server.json']);
    expect(result.code).toBe(2);
    expect(result.err).toContain('missing values (not asked: no terminal, and no --yes for defaults):');
    expect(result.err).toContain('--var units=<value>   (default metric: --yes takes it)');
    expect(result.err).toContain('--env WEATHER_REGION=<value>   (Region; one of eu, us)');
    expect(result.err).not.toContain('WEATHER_API_KEY');
  });

  it('takes defaults with --yes and values from flags; secrets become references', async () => {
    const { run, home } = withServerJson();
    const result = await run([
      'add',
      'weather',
      '--client',
      'cursor',
      '--from',
      'server.json',
      '--yes',
      '--env',
      'WEATHER_REGION=eu',
    ]);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toContain('Source: io.example/weather 1.2.0 (npm package @example/weather-mcp@1.2.0)');
    expect(result.out).toContain('WEATHER_API_KEY is written as a reference to ${WEATHER_API_KEY}');
    expect(JSON.parse(readFileSync(join(home, '.cursor', 'mcp.json'), 'utf8'))).toEqual({
      mcpServers: {
        weather: {
          command: 'npx',
          args: ['-y', '@example/weather-mcp@1.2.0', '--units', 'metric'],
          env: { WEATHER_API_KEY: '${env:WEATHER_API_KEY}', WEATHER_REGION: 'eu' },
        },
      },
    });
    const bad = await run([
      'add',
      'weather',
      '--client',
      'cursor',
      '--from',
      'server.json',
      '--yes',
      '--env',
      'WEATHER_REGION=mars',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('WEATHER_REGION must be one of eu, us');
  });

  it('picks the remote with --transport, filling URL variables and secret headers', async () => {
    const { run } = withServerJson();
    const result = await run([
      'add',
      'weather',
      '--client',
      'codex',
      '--from',
      'server.json',
      '--transport',
      'http',
      '--var',
      'tenant=acme',
      '--dry-run',
    ]);
    expect(result.err).toBe('');
    expect(result.out).toContain('+url = "https://acme.weather.example/mcp"');
    expect(result.out).toContain('+X-Api-Key = "X_API_KEY"');
    const sse = await run([
      'add',
      'weather',
      '--client',
      'codex',
      '--from',
      'server.json',
      '--transport',
      'sse',
    ]);
    expect(sse.code).toBe(2);
    expect(sse.err).toContain('io.example/weather has no sse endpoint (remotes: streamable-http');
  });

  it('explains a server.json it cannot use', async () => {
    const { run, project } = sandbox();
    writeFileSync(
      join(project, 'bad.json'),
      JSON.stringify({ name: 'x/y', packages: [{ registryType: 'npm' }] }),
    );
    const result = await run(['add', 'w', '--client', 'cursor', '--from', 'bad.json']);
    expect(result.code).toBe(2);
    expect(result.err).toContain('bad.json: packages[0].identifier must be a string');
  });
});

describe('mcpengine list and remove', () => {
  it('lists servers of every client without printing values, as a table or JSON', async () => {
    const { run, home, project } = sandbox();
    await run([
      'add',
      'gh',
      '--client',
      'cursor',
      '--env',
      'GITHUB_TOKEN=ghp_secret',
      '--',
      'npx',
      '-y',
      'gh-mcp',
    ]);
    await run([
      'add',
      'docs',
      '--client',
      'codex',
      '--url',
      'https://docs.example/mcp',
      '--header',
      'Authorization: Bearer ${DOCS}',
    ]);
    await run(['add', 'local', '--client', 'claude-code', '--scope', 'project', '--', 'node', 'server.js']);
    const table = await run(['list']);
    expect(table.code).toBe(0);
    expect(table.out).toMatch(/^CLIENT\s+SCOPE\s+NAME\s+TRANSPORT\s+COMMAND \/ URL\s+FILE$/m);
    expect(table.out).toMatch(/^cursor\s+user\s+gh\s+stdio\s+npx -y gh-mcp\s+/m);
    expect(table.out).not.toContain('ghp_secret');
    const json = await run(['list', '--json']);
    const parsed = JSON.parse(json.out) as { servers: object[]; problems: object[] };
    expect(parsed.problems).toEqual([]);
    expect(parsed.servers).toEqual([
      {
        client: 'claude-code',
        scope: 'project',
        file: join(project, '.mcp.json'),
        name: 'local',
        transport: 'stdio',
        command: 'node',
        args: ['server.js'],
        env: [],
      },
      {
        client: 'cursor',
        scope: 'user',
        file: join(home, '.cursor', 'mcp.json'),
        name: 'gh',
        transport: 'stdio',
        command: 'npx',
        args: ['-y', 'gh-mcp'],
        env: ['GITHUB_TOKEN'],
      },
      {
        client: 'codex',
        scope: 'user',
        file: join(home, '.codex', 'config.toml'),
        name: 'docs',
        transport: 'http',
        url: 'https://docs.example/mcp',
        headers: ['Authorization'],
      },
      // GitHub Copilot CLI reads the same project .mcp.json.
      {
        client: 'copilot-cli',
        scope: 'project',
        file: join(project, '.mcp.json'),
        name: 'local',
        transport: 'stdio',
        command: 'node',
        args: ['server.js'],
        env: [],
      },
    ]);
    const one = JSON.parse((await run(['list', '--client', 'codex', '--json'])).out) as {
      servers: unknown[];
    };
    expect(one.servers).toHaveLength(1);
  });

  it('reports an unreadable file and still lists the rest, with exit code 2', async () => {
    const { run, home } = sandbox();
    await run(['add', 'gh', '--client', 'cursor', '--', 'gh-mcp']);
    mkdirSync(join(home, '.codex'));
    writeFileSync(join(home, '.codex', 'config.toml'), '[mcp_servers.x\n');
    const result = await run(['list']);
    expect(result.code).toBe(2);
    expect(result.out).toContain('gh-mcp');
    expect(result.err).toContain('mcpengine list: codex (user): ');
    expect(result.err).toContain('config.toml:');
  });

  it('removes a server from the scope it is in, keeping the others; a second removal fails', async () => {
    const { run, home } = sandbox();
    await run(['add', 'a', '--client', 'codex', '--', 'a-mcp']);
    await run(['add', 'b', '--client', 'codex', '--', 'b-mcp']);
    const dry = await run(['remove', 'a', '--client', 'codex', '--dry-run']);
    expect(dry.out).toContain('-[mcp_servers.a]');
    const removed = await run(['remove', 'a', '--client', 'codex']);
    expect(removed.code).toBe(0);
    expect(removed.out).toContain('Removed "a" from Codex (user scope)');
    expect(readFileSync(join(home, '.codex', 'config.toml'), 'utf8')).toBe(
      '[mcp_servers.b]\ncommand = "b-mcp"\nargs = []\n',
    );
    const again = await run(['remove', 'a', '--client', 'codex']);
    expect(again.code).toBe(2);
    expect(again.err).toContain('no server named "a" in Codex');
  });
});
