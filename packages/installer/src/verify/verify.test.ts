/**
 * `--verify` against the real everything server: over stdio (`node servers/everything/dist/main.js`, so run
 * `npm run build` first), Streamable HTTP and HTTP+SSE, through each client's entry as written, with every
 * message the installer's client sends checked against the official schema of the negotiated revision.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { tapTransport, WireTap } from '@mcpengine/oracle';
import { createEverythingServer } from '@mcpengine/server-everything';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHttpHandler, serveHttp, toNodeHandler, type HttpServing } from 'mcpengine/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdd, type AddRequest, type InstallerIo } from '../add.js';
import { hostPlatform } from '../options.js';
import type { Handshake } from './engine-client.js';
import { FLEET_DIR_ENV } from '../sources/fleet.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const EVERYTHING = join(ROOT, 'servers', 'everything', 'dist', 'main.js');
const FLEET = join(ROOT, 'packages', 'installer', 'test', 'fleet');

let serving: HttpServing;
beforeAll(async () => {
  serving = await serveHttp(createEverythingServer(), { host: '127.0.0.1', port: 0, legacySse: true });
});
afterAll(async () => {
  await serving.close({ drainTimeoutMs: 100 });
});

interface Run {
  code: number;
  out: string;
  err: string;
  tap: WireTap;
  home: string;
}

async function add(
  request: Partial<AddRequest> & Pick<AddRequest, 'client' | 'source'>,
  env: Record<string, string> = {},
): Promise<Run> {
  const home = mkdtempSync(join(tmpdir(), 'installer-verify-'));
  const tap = new WireTap();
  let out = '';
  let err = '';
  const io: InstallerIo = {
    stdout: (text) => void (out += text),
    stderr: (text) => void (err += text),
    env: { PATH: process.env['PATH'], HOME: home, ...env },
    cwd: ROOT,
    signal: new AbortController().signal,
    wrapTransport: (transport) => tapTransport(transport as never, tap, 'client') as typeof transport,
  };
  const code = await runAdd(
    {
      name: 'everything',
      scope: 'user',
      platform: process.platform === 'darwin' ? 'darwin' : process.platform === 'win32' ? 'win32' : 'linux',
      env: {},
      headers: {},
      vars: {},
      yes: false,
      dryRun: false,
      verify: true,
      timeoutMs: 20_000,
      ...request,
    },
    io,
  );
  return { code, out, err, tap, home };
}

describe('--verify', () => {
  it.each(['cursor', 'claude-code', 'codex', 'goose', 'opencode', 'vscode'])(
    'starts the stdio entry written for %s and completes the handshake',
    async (client) => {
      const run = await add({ client, source: { kind: 'command', argv: ['node', EVERYTHING] } });
      expect(run.err).toBe('');
      expect(run.out).toMatch(
        /Verified: mcpengine-everything 0\.1\.0 answered over stdio at revision \d{4}-\d{2}-\d{2} \((modern|legacy) era\) with \d+ tools/,
      );
      expect(run.code).toBe(0);
      expect(run.tap.violations).toEqual([]);
      expect(run.tap.revision).toBeDefined();
    },
  );

  it('with --dry-run verifies the entry it would write, and writes nothing', async () => {
    const run = await add({
      client: 'cursor',
      dryRun: true,
      source: { kind: 'command', argv: ['node', EVERYTHING] },
    });
    expect(run.err).toBe('');
    expect(run.out).toContain('(dry run: nothing written');
    expect(run.out).toMatch(/Verified: mcpengine-everything 0\.1\.0 answered over stdio/);
    expect(run.code).toBe(0);
    expect(existsSync(join(run.home, '.cursor'))).toBe(false);
  });

  it('passes the entry environment, resolving references the way the client does', async () => {
    // Codex forwards API_KEY by name (env_vars); the server starts only if the variable reaches it.
    const run = await add(
      {
        client: 'codex',
        source: {
          kind: 'command',
          argv: [
            'node',
            '-e',
            "if (process.env.API_KEY !== 's3cret') process.exit(7); import(process.argv[1])",
            EVERYTHING,
          ],
        },
        env: { API_KEY: '${API_KEY}' },
      },
      { API_KEY: 's3cret' },
    );
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(readFileSync(join(run.home, '.codex', 'config.toml'), 'utf8')).toContain('env_vars = ["API_KEY"]');
    const missing = await add({
      client: 'codex',
      source: { kind: 'command', argv: ['node', EVERYTHING] },
      env: { API_KEY: '${API_KEY}' },
    });
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('the entry refers to API_KEY, which is not set here');
  });

  it('withholds what the client withholds: Gemini CLI passes no credential-looking variable to a stdio server', async () => {
    const argv = [
      'node',
      '-e',
      "if (process.env.MY_TOKEN) { console.error('MY_TOKEN leaked'); process.exit(9) } import(process.argv[1])",
      EVERYTHING,
    ];
    const gemini = await add({ client: 'gemini', source: { kind: 'command', argv } }, { MY_TOKEN: 'x' });
    expect(gemini.err).toBe('');
    expect(gemini.code).toBe(0);
    expect(gemini.out).toContain('Gemini CLI starts stdio servers only in trusted folders');
    const cursor = await add({ client: 'cursor', source: { kind: 'command', argv } }, { MY_TOKEN: 'x' });
    expect(cursor.code).toBe(1);
    expect(cursor.err).toContain('MY_TOKEN leaked');
  });

  it.each(['cursor', 'claude-code', 'gemini', 'codex', 'zed', 'vscode'])(
    'connects the Streamable HTTP entry written for %s',
    async (client) => {
      const run = await add({ client, source: { kind: 'url', url: serving.url } });
      expect(run.err).toBe('');
      expect(run.out).toContain('answered over Streamable HTTP at revision');
      expect(run.code).toBe(0);
      expect(run.tap.violations).toEqual([]);
    },
  );

  it.each(['claude-code', 'cline', 'gemini'])(
    'connects the HTTP+SSE entry written for %s (2024-11-05)',
    async (client) => {
      const run = await add({ client, source: { kind: 'url', url: serving.sseUrl! }, transport: 'sse' });
      expect(run.err).toBe('');
      expect(run.out).toMatch(/answered over HTTP\+SSE at revision 20\d\d-\d\d-\d\d \(legacy era\)/);
      expect(run.code).toBe(0);
      expect(run.tap.violations).toEqual([]);
    },
  );

  it('sends the headers of the entry, with references resolved', async () => {
    // The everything server behind a gate that answers 401 unless the resolved token arrives.
    const mcp = toNodeHandler(createMcpHttpHandler(createEverythingServer()));
    const gate = createServer((request, response) => {
      if (request.headers['authorization'] !== 'Bearer t0ken' || request.headers['x-trace'] !== 'on') {
        response.writeHead(401).end();
        return;
      }
      mcp(request, response);
    });
    await new Promise<void>((done) => gate.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(gate.address() as AddressInfo).port}/mcp`;
    try {
      const headers = { 'X-Trace': 'on', Authorization: 'Bearer ${TOKEN}' };
      const run = await add(
        { client: 'claude-code', source: { kind: 'url', url }, headers },
        { TOKEN: 't0ken' },
      );
      expect(run.err).toBe('');
      expect(run.code).toBe(0);
      expect(readFileSync(join(run.home, '.claude.json'), 'utf8')).toContain(
        '"Authorization": "Bearer ${TOKEN}"',
      );
      expect(run.out).toContain('(headers: X-Trace, Authorization)');
      const wrong = await add(
        { client: 'claude-code', source: { kind: 'url', url }, headers },
        { TOKEN: 'other' },
      );
      expect(wrong.code).toBe(1);
      expect(wrong.err).toContain('401');
      expect(wrong.err).not.toContain('other');
    } finally {
      gate.closeAllConnections();
      await new Promise((done) => gate.close(done));
    }
  });

  it('fails with exit code 1 and the server’s last words when it does not start', async () => {
    const run = await add({
      client: 'cursor',
      source: {
        kind: 'command',
        argv: ['node', '-e', "console.error('no database configured'); process.exit(3)"],
      },
    });
    expect(run.code).toBe(1);
    expect(run.err).toContain('verify failed');
    expect(run.err).toContain('no database configured');
    const refused = await add({ client: 'cursor', source: { kind: 'url', url: 'http://127.0.0.1:9/mcp' } });
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('verify failed: http://127.0.0.1:9/mcp');
  });

  it('verifies a fleet server by name through its server.json remote', async () => {
    const port = new URL(serving.url).port;
    const run = await add(
      { client: 'cursor', source: { kind: 'fleet' }, transport: 'http', vars: { port } },
      { [FLEET_DIR_ENV]: FLEET },
    );
    expect(run.err).toBe('');
    expect(run.out).toContain(
      'Source: io.github.mcpengine/everything 0.1.0 (streamable-http endpoint http://127.0.0.1:{port}/mcp)',
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(readFileSync(join(run.home, '.cursor', 'mcp.json'), 'utf8'))).toEqual({
      mcpServers: { everything: { url: serving.url } },
    });
  });

  it('starts an identical launch once per session: clients whose entries resolve to it share the handshake', async () => {
    // A wrapper that notes each start, in front of the everything server.
    const dir = mkdtempSync(join(tmpdir(), 'installer-verify-shared-'));
    const starts = join(dir, 'starts');
    const wrapper = join(dir, 'main.mjs');
    writeFileSync(
      wrapper,
      `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(starts)}, 'x');\nawait import(${JSON.stringify(pathToFileURL(EVERYTHING).href)});\n`,
    );
    const handshakes = new Map<string, Promise<Handshake>>();
    const home = mkdtempSync(join(tmpdir(), 'installer-verify-'));
    const verify = async (client: string, env: Record<string, string> = {}) => {
      let out = '';
      const code = await runAdd(
        {
          name: 'everything',
          client,
          scope: 'user',
          platform: hostPlatform(),
          source: { kind: 'command', argv: ['node', wrapper] },
          env,
          headers: {},
          vars: {},
          yes: false,
          dryRun: false,
          verify: true,
          timeoutMs: 20_000,
        },
        {
          stdout: (text) => void (out += text),
          stderr: (text) => void (out += text),
          env: { PATH: process.env['PATH'], HOME: home },
          cwd: home,
          signal: new AbortController().signal,
          handshakes,
        },
      );
      return { code, out };
    };
    // Cursor, Claude Code and Codex start `node main.mjs` with the same environment (Codex passes PATH and HOME).
    const first = await verify('cursor');
    expect(first.code).toBe(0);
    expect(first.out).not.toMatch(/not repeated/);
    for (const client of ['claude-code', 'codex']) {
      const again = await verify(client);
      expect(again.code).toBe(0);
      expect(again.out).toMatch(/Verified: mcpengine-everything .*; the same launch as one verified earlier/);
    }
    expect(readFileSync(starts, 'utf8')).toBe('x');
    // Another environment is another launch: started and verified on its own.
    const other = await verify('goose', { EXTRA: 'yes' });
    expect(other.code).toBe(0);
    expect(other.out).not.toMatch(/not repeated/);
    expect(readFileSync(starts, 'utf8')).toBe('xx');
    expect(handshakes.size).toBe(2);
  });
});
