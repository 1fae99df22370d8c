/**
 * `mcpengine inspect --cli` against the everything server over stdio and HTTP: every method, every exit-code
 * class, the official positional form, tasks, pinned revisions, `--record` and `--diff`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli.js';

const ROOT = resolve(import.meta.dirname, '../../../..');
const SERVER = join(ROOT, 'servers/everything/dist/main.js');
const dir = mkdtempSync(join(tmpdir(), 'inspect-cli-'));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function inspect(...args: string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(['inspect', ...args], {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    env: {},
    cwd: ROOT,
    isTTY: false,
    signal: new AbortController().signal,
  });
  return { code, stdout, stderr };
}

/** The last stderr line: the one-line error envelope. */
function envelope(run: Run): { error: { exitCode: number; class: string; message: string } } {
  const lines = run.stderr.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]!) as never;
}

let http: ChildProcess;
let httpUrl = '';
let sseUrl = '';
let authServer: Server;
let authUrl = '';
let scopeServer: Server;
let scopeUrl = '';

beforeAll(async () => {
  http = spawn(process.execPath, [SERVER, '--http', '--port', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let banner = '';
  await new Promise<void>((ready, reject) => {
    http.once('exit', (code) => reject(new Error(`the HTTP server exited (${code}): ${banner}`)));
    http.stderr!.on('data', (chunk: Buffer) => {
      banner += chunk.toString();
      const streamable = /Streamable HTTP: (\S+)/.exec(banner);
      const sse = /HTTP\+SSE: +(\S+)/.exec(banner);
      if (streamable && sse) {
        httpUrl = streamable[1]!;
        sseUrl = sse[1]!;
        ready();
      }
    });
  });
  // A server that wants credentials: every request is answered 401 with a challenge.
  authServer = createServer((_request, response) => {
    response.writeHead(401, {
      'www-authenticate': 'Bearer resource_metadata="http://127.0.0.1/.well-known/x"',
    });
    response.end();
  });
  await new Promise<void>((ready) => authServer.listen(0, '127.0.0.1', ready));
  const address = authServer.address();
  authUrl = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/mcp`;
  // A server that accepts the session but wants a larger scope for tools/call: 403 insufficient_scope.
  scopeServer = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const message = JSON.parse(body || '{}') as { id?: number; method?: string };
      if (message.method === 'initialize') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: message.id,
            result: {
              protocolVersion: '2025-11-25',
              capabilities: { tools: {} },
              serverInfo: { name: 'scoped', version: '1' },
            },
          }),
        );
      } else if (message.id === undefined) {
        response.writeHead(202);
        response.end();
      } else {
        response.writeHead(403, {
          'www-authenticate': 'Bearer error="insufficient_scope", scope="notes:write"',
        });
        response.end();
      }
    });
  });
  await new Promise<void>((ready) => scopeServer.listen(0, '127.0.0.1', ready));
  const scoped = scopeServer.address();
  scopeUrl = `http://127.0.0.1:${typeof scoped === 'object' && scoped !== null ? scoped.port : 0}/mcp`;
}, 30_000);

afterAll(async () => {
  http?.kill('SIGTERM');
  await new Promise<void>((done) => authServer.close(() => done()));
  await new Promise<void>((done) => scopeServer.close(() => done()));
  rmSync(dir, { recursive: true, force: true });
});

describe('inspect --cli over stdio (official positional form)', () => {
  it('tools/list prints every tool as JSON on stdout', async () => {
    const run = await inspect('--cli', 'node', SERVER, '--method', 'tools/list');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { tools: { name: string }[] };
    expect(result.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['add', 'echo', 'greet']));
  });

  it('tools/call coerces --tool-arg values as JSON and --format json wraps the result', async () => {
    const run = await inspect(
      '--cli',
      'node',
      SERVER,
      '--method',
      'tools/call',
      '--tool-name',
      'add',
      '--tool-arg',
      'a=40',
      '--tool-arg',
      'b=2',
      '--format',
      'json',
    );
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as {
      result: { structuredContent: unknown };
      schemaFindings?: unknown;
    };
    expect(out.result.structuredContent).toEqual({ sum: 42 });
    expect(out.schemaFindings).toBeUndefined();
  });

  it('a --tool-arg that is not JSON stays a string; --tool-args-json passes an object', async () => {
    const text = await inspect(
      '--cli',
      'node',
      SERVER,
      '--method',
      'tools/call',
      '--tool-name',
      'echo',
      '--tool-arg',
      'text=hello world',
    );
    expect(text.code).toBe(0);
    expect(JSON.stringify(JSON.parse(text.stdout))).toContain('hello world');
    const json = await inspect(
      '--cli',
      '--stdio',
      `node ${SERVER}`,
      '--method',
      'tools/call',
      '--tool-name',
      'greet',
      '--tool-args-json',
      '{"name":"Ada"}',
    );
    expect(json.code).toBe(0);
    expect(json.stdout).toContain('Hello, Ada!');
  });

  it('resources, templates and prompts', async () => {
    const resources = await inspect('--cli', 'node', SERVER, '--method', 'resources/list');
    expect(resources.code).toBe(0);
    expect(resources.stdout).toContain('test://static-text');
    const read = await inspect(
      '--cli',
      'node',
      SERVER,
      '--method',
      'resources/read',
      '--uri',
      'test://static-text',
    );
    expect(read.code).toBe(0);
    expect(read.stdout).toContain('This is the content of the static text resource.');
    const templates = await inspect('--cli', 'node', SERVER, '--method', 'resources/templates/list');
    expect(templates.code).toBe(0);
    expect(templates.stdout).toContain('test://template/{id}/data');
    const prompts = await inspect('--cli', 'node', SERVER, '--method', 'prompts/list');
    expect(prompts.code).toBe(0);
    expect(prompts.stdout).toContain('test_prompt_with_arguments');
    const prompt = await inspect(
      '--cli',
      'node',
      SERVER,
      '--method',
      'prompts/get',
      '--prompt-name',
      'test_prompt_with_arguments',
      '--prompt-args',
      'arg1=first',
      '--prompt-args',
      'arg2=42',
    );
    expect(prompt.code).toBe(0);
    expect(prompt.stdout).toContain('first');
    // Prompt arguments are strings by the spec: 42 is not coerced to a number.
    expect(prompt.stdout).toContain('42');
  });

  it('logging/setLevel at a legacy revision; refused with a clear message in the modern era', async () => {
    const legacy = await inspect(
      '--cli',
      'node',
      SERVER,
      '--revision',
      '2025-11-25',
      '--method',
      'logging/setLevel',
      '--log-level',
      'debug',
    );
    expect(legacy.code).toBe(0);
    expect(JSON.parse(legacy.stdout)).toEqual({});
    const modern = await inspect(
      '--cli',
      'node',
      SERVER,
      '--method',
      'logging/setLevel',
      '--log-level',
      'debug',
    );
    expect(modern.code).toBe(1);
    expect(modern.stdout).toBe('');
    expect(envelope(modern).error.message).toMatch(/modern era/);
  });

  it('initialize shows the negotiated revision, server info and instructions', async () => {
    const run = await inspect('--cli', 'node', SERVER, '--method', 'initialize', '--revision', '2025-06-18');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      protocolVersion: '2025-06-18',
      era: 'legacy',
      info: { name: 'mcpengine-everything' },
      instructions: expect.stringMatching(/test server/),
    });
  });

  it('exit 5 for isError and for an unknown tool, with the result on stdout for isError', async () => {
    const isError = await inspect(
      '--cli',
      'node',
      SERVER,
      '--method',
      'tools/call',
      '--tool-name',
      'test_error_handling',
    );
    expect(isError.code).toBe(5);
    expect(JSON.parse(isError.stdout)).toMatchObject({ isError: true });
    expect(envelope(isError).error).toMatchObject({ exitCode: 5, class: 'toolError' });
    const unknown = await inspect(
      '--cli',
      'node',
      SERVER,
      '--method',
      'tools/call',
      '--tool-name',
      'no_such_tool',
    );
    expect(unknown.code).toBe(5);
    expect(unknown.stdout).toBe('');
    expect(envelope(unknown).error.message).toMatch(/no_such_tool/);
  });

  it('exit 1 for usage errors, before anything is started', async () => {
    for (const args of [
      ['--cli', 'node', SERVER],
      ['--cli', 'node', SERVER, '--method', 'tools/frobnicate'],
      ['--cli', 'node', SERVER, '--method', 'tools/call'],
      ['--cli', 'node', SERVER, '--method', 'resources/read'],
      ['--cli', 'node', SERVER, '--method', 'prompts/get'],
      ['--cli', 'node', SERVER, '--method', 'logging/setLevel', '--log-level', 'loud'],
      ['--cli', 'node', SERVER, '--method', 'tools/call', '--tool-name', 'add', '--tool-args-json', '[1]'],
      ['--cli', 'node', SERVER, '--method', 'tools/call', '--tool-name', 'add', '--tool-arg', 'novalue'],
      ['--cli', '--method', 'tools/list'],
      ['--cli', '--url', 'ftp://x', '--method', 'tools/list'],
      ['--cli', '--bogus-flag', 'node', SERVER, '--method', 'tools/list'],
      ['--cli', 'node', SERVER, '--method', 'tools/list', '--revision', '1999-01-01'],
    ]) {
      const run = await inspect(...args);
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stdout, args.join(' ')).toBe('');
    }
  });

  it('exit 4 when the command cannot start, with the reason', async () => {
    const run = await inspect('--cli', join(dir, 'missing-server'), '--method', 'tools/list');
    expect(run.code).toBe(4);
    expect(envelope(run).error).toMatchObject({ exitCode: 4, class: 'unreachable' });
  });

  it('gives the server its own flags: -- before the command, or unknown flags after it', async () => {
    // --banner is the server's flag (it then prints a banner on stderr).
    const before = await inspect(
      '--cli',
      '-e',
      'MCP_X=1',
      '--method',
      'tools/list',
      '--',
      'node',
      SERVER,
      '--banner',
    );
    expect(before.code).toBe(0);
    expect(before.stdout).toContain('"add"');
    const after = await inspect('--cli', 'node', SERVER, '--banner', '--', '--method', 'tools/list');
    expect(after.code).toBe(0);
    expect(after.stdout).toContain('"add"');
    // After `--` before the command, --method is the server's: the inspector has no method and says so.
    const swallowed = await inspect('--cli', '--', 'node', SERVER, '--method', 'tools/list');
    expect(swallowed.code).toBe(1);
  });
});

describe('inspect --cli over HTTP', () => {
  it('Streamable HTTP (--url, and the official --transport http --server-url)', async () => {
    const run = await inspect(
      '--cli',
      '--url',
      httpUrl,
      '--method',
      'tools/call',
      '--tool-name',
      'add',
      '--tool-arg',
      'a=1',
      '--tool-arg',
      'b=1',
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ structuredContent: { sum: 2 } });
    const official = await inspect(
      '--cli',
      '--transport',
      'http',
      '--server-url',
      httpUrl,
      '--method',
      'prompts/list',
    );
    expect(official.code).toBe(0);
    expect(official.stdout).toContain('test_simple_prompt');
  });

  it('HTTP+SSE (the positional URL with --transport sse)', async () => {
    const run = await inspect(
      '--cli',
      sseUrl,
      '--transport',
      'sse',
      '--method',
      'resources/read',
      '--uri',
      'test://static-text',
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('static text resource');
  });

  it('every list method and a legacy revision over HTTP', async () => {
    for (const method of ['tools/list', 'resources/list', 'resources/templates/list', 'prompts/list']) {
      const run = await inspect('--cli', '--url', httpUrl, '--revision', '2025-03-26', '--method', method);
      expect(run.code, method).toBe(0);
    }
  });

  it('exit 3 when the server requires authorization', async () => {
    const run = await inspect('--cli', '--url', authUrl, '--method', 'tools/list');
    expect(run.code).toBe(3);
    expect(envelope(run).error).toMatchObject({ exitCode: 3, class: 'auth' });
  });

  it('exit 3 when a request is answered 403 insufficient_scope after the session opened', async () => {
    const run = await inspect(
      '--cli',
      '--url',
      scopeUrl,
      '--revision',
      '2025-11-25',
      '--method',
      'tools/call',
      '--tool-name',
      'add-note',
    );
    expect(run.code).toBe(3);
    expect(run.stdout).toBe('');
    expect(envelope(run).error).toMatchObject({
      exitCode: 3,
      class: 'auth',
      message: expect.stringMatching(/^tools\/call needs authorization \(HTTP 403\)/),
    });
  });

  it('exit 4 when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((ready) => closed.listen(0, '127.0.0.1', ready));
    const address = closed.address();
    await new Promise<void>((done) => closed.close(() => done()));
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const run = await inspect('--cli', '--url', `http://127.0.0.1:${port}/mcp`, '--method', 'tools/list');
    expect(run.code).toBe(4);
  });

  it('exit 5 for a tool error over HTTP', async () => {
    const run = await inspect(
      '--cli',
      '--url',
      httpUrl,
      '--method',
      'tools/call',
      '--tool-name',
      'test_error_handling',
    );
    expect(run.code).toBe(5);
  });
});

describe('tasks', () => {
  it('tools/call --task returns the task; tasks/get and tasks/result follow it across invocations (modern, stateless HTTP)', async () => {
    // The modern era is stateless over HTTP, so the task one invocation created is there for the next ones.
    const created = await inspect(
      '--cli',
      '--url',
      httpUrl,
      '--method',
      'tools/call',
      '--tool-name',
      'slow_compute',
      '--tool-arg',
      'seconds=1',
      '--task',
    );
    expect(created.code).toBe(0);
    const taskId =
      (JSON.parse(created.stdout) as { task?: { taskId: string }; taskId?: string }).task?.taskId ??
      (JSON.parse(created.stdout) as { taskId?: string }).taskId;
    expect(typeof taskId).toBe('string');
    const got = await inspect('--cli', '--url', httpUrl, '--method', 'tasks/get', '--task-id', taskId!);
    expect(got.code).toBe(0);
    expect(got.stdout).toContain(taskId!);
    const result = await inspect('--cli', '--url', httpUrl, '--method', 'tasks/result', '--task-id', taskId!);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Computed result in 1s');
  });

  it('tasks/list at 2025-11-25 and tasks/get of an unknown task', async () => {
    const list = await inspect('--cli', 'node', SERVER, '--revision', '2025-11-25', '--method', 'tasks/list');
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toMatchObject({ tasks: [] });
    const missing = await inspect(
      '--cli',
      'node',
      SERVER,
      '--revision',
      '2025-11-25',
      '--method',
      'tasks/get',
      '--task-id',
      'nope',
    );
    expect(missing.code).toBe(1);
    expect(envelope(missing).error.message).toMatch(/tasks\/get/);
  });
});

describe('--record and --diff', () => {
  it('records the session timeline, schema-checked, and diffs two recordings', async () => {
    const before = join(dir, 'before.jsonl');
    const run = await inspect('--cli', '--url', httpUrl, '--method', 'tools/list', '--record', before);
    expect(run.code).toBe(0);
    const lines = readFileSync(before, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ format: 'mcpengine-inspect-session', revision: '2026-07-28' });
    const http = lines.filter((line) => line['kind'] === 'http');
    expect(http.length).toBeGreaterThan(0);
    expect(http[0]).toMatchObject({ method: 'POST', status: 200 });
    const messages = lines.filter((line) => line['kind'] === 'message');
    expect(messages.some((line) => line['method'] === 'tools/list')).toBe(true);
    expect(messages.every((line) => line['violations'] === undefined)).toBe(true);

    const after = join(dir, 'after.jsonl');
    expect((await inspect('--cli', 'node', SERVER, '--method', 'tools/list', '--record', after)).code).toBe(
      0,
    );
    const same = await inspect('--diff', before, '--diff', after);
    expect(same.code).toBe(0);
    expect(JSON.parse(same.stdout)).toMatchObject({ added: [], removed: [], changed: [] });
    const bad = await inspect('--diff', before, '--diff', join(dir, 'missing.jsonl'));
    expect(bad.code).toBe(1);
  });

  it('records a failed connection too', async () => {
    const file = join(dir, 'failed.jsonl');
    const run = await inspect('--cli', '--url', authUrl, '--method', 'tools/list', '--record', file);
    expect(run.code).toBe(3);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('"status":401');
    expect(text).toContain('connection failed');
  });
});

describe('findings', () => {
  it('--format json lists wire schema violations and outputSchema breaks as schemaFindings', async () => {
    const fixture = join(ROOT, 'packages/inspector/src/core/misbehaving-server.fixture.mjs');
    const run = await inspect(
      '--cli',
      'node',
      fixture,
      '--method',
      'tools/call',
      '--tool-name',
      'wrong_output',
      '--format',
      'json',
    );
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as { schemaFindings: string[] };
    expect(out.schemaFindings.some((finding) => /not JSON/.test(finding))).toBe(true);
    expect(out.schemaFindings.some((finding) => /outputSchema of wrong_output/.test(finding))).toBe(true);
    expect(run.stderr).toMatch(/warning: structuredContent\/n does not match/);
  });
});

describe('inspect (web UI)', () => {
  it('prints the address with its token and stops when interrupted', async () => {
    const interrupt = new AbortController();
    let stdout = '';
    let printed: () => void = () => {};
    const url = new Promise<void>((resolveUrl) => (printed = resolveUrl));
    const running = runCli(['inspect', '--stdio', `node ${SERVER}`, '--port', '0'], {
      stdout: (text) => {
        stdout += text;
        if (/#token=/.test(stdout)) printed();
      },
      stderr: () => {},
      env: {},
      cwd: ROOT,
      isTTY: false,
      signal: interrupt.signal,
    });
    await url;
    const address = /(http:\/\/127\.0\.0\.1:\d+)\/#token=([\w-]+)/.exec(stdout);
    expect(address).not.toBeNull();
    const state = await fetch(`${address![1]}/api/state`, {
      headers: { authorization: `Bearer ${address![2]}` },
    });
    expect(state.status).toBe(200);
    expect(await state.json()).toMatchObject({ connected: false, target: { kind: 'stdio' } });
    interrupt.abort();
    expect(await running).toBe(0);
  });

  it('refuses a wildcard bind', async () => {
    const run = await inspect('--stdio', `node ${SERVER}`, '--host', '0.0.0.0');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/refusing to serve the inspector on 0\.0\.0\.0/);
  });
});
