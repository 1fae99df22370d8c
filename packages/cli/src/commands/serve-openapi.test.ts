/**
 * `mcpengine serve-openapi` and `mcpengine generate` end to end: usage errors and unservable descriptions exit
 * 2 with one line, and the served description passes `mcpengine validate` on stdio and on HTTP.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli.js';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'mcpengine.js');
const work = mkdtempSync(join(tmpdir(), 'mcpengine-openapi-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const SPEC = join(work, 'todo.json');
writeFileSync(
  SPEC,
  JSON.stringify({
    openapi: '3.1.0',
    info: { title: 'Todo', version: '1.0.0' },
    servers: [{ url: 'https://todo.example.com' }],
    components: { securitySchemes: { token: { type: 'http', scheme: 'bearer' } } },
    security: [{ token: [] }],
    paths: {
      '/todos': {
        get: { operationId: 'listTodos', summary: 'List todos', responses: { '200': { description: 'ok' } } },
        post: {
          operationId: 'addTodo',
          requestBody: {
            content: {
              'application/json': {
                schema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
              },
            },
          },
          responses: { '201': { description: 'ok' } },
        },
      },
    },
  }),
);

async function run(args: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    env,
    cwd: work,
    isTTY: false,
    signal: new AbortController().signal,
  });
  return { code, stdout, stderr };
}

describe('mcpengine serve-openapi', () => {
  it('answers usage errors with exit code 2', async () => {
    for (const args of [
      ['serve-openapi'],
      ['serve-openapi', SPEC, '--expose', 'some'],
      ['serve-openapi', SPEC, '--port', '3000'],
      ['serve-openapi', SPEC, '--http'],
      ['serve-openapi', SPEC, '--header', 'no colon'],
      ['serve-openapi', SPEC, '--base-url', 'ftp://x'],
      ['generate', SPEC],
    ]) {
      const { code, stderr } = await run(args);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr).toMatch(/^mcpengine (serve-openapi|generate): /);
    }
  });

  it('refuses a description it cannot serve with one line saying what and where, and no stack', async () => {
    const broken = join(work, 'broken.yaml');
    writeFileSync(broken, 'openapi: 3.0.0\ninfo:\n  title: x\n version: 1\n');
    const missingRef = join(work, 'ref.json');
    writeFileSync(
      missingRef,
      JSON.stringify({
        openapi: '3.0.0',
        info: { title: 'x', version: '1' },
        paths: { '/a': { get: { parameters: [{ $ref: '#/components/parameters/Gone' }], responses: {} } } },
      }),
    );
    for (const [file, what] of [
      [broken, /cannot parse the description: .* \(at line 4, column \d+\)$/],
      [missingRef, /Gone/],
      [join(work, 'nothing-here.json'), /no such file/],
    ] as const) {
      for (const command of ['serve-openapi', 'generate']) {
        const { code, stderr } = await run(
          command === 'generate' ? [command, file, '--out', join(work, 'out')] : [command, file],
        );
        expect(code).toBe(2);
        const lines = stderr.trim().split('\n');
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(what);
        expect(stderr).not.toMatch(/\n\s+at /);
      }
    }
  });

  it('refuses to start without the credentials the description requires, naming the variable', async () => {
    const { code, stderr } = await run(['serve-openapi', SPEC]);
    expect(code).toBe(2);
    expect(stderr.trim()).toBe(
      'mcpengine serve-openapi: missing environment variable: set TODO_TOKEN_TOKEN (security scheme token of the description)',
    );
  });

  it('serves a description on stdio that passes mcpengine validate in every revision', async () => {
    const report = join(work, 'stdio.json');
    const { code, stdout } = await run([
      'validate',
      '--stdio',
      `"${process.execPath}" "${BIN}" serve-openapi "${SPEC}" --base-url http://127.0.0.1:9`,
      '--env',
      'TODO_TOKEN_TOKEN=token-for-validation',
      '--json',
      report,
    ]);
    expect(code, stdout).toBe(0);
    const parsed = JSON.parse(readFileSync(report, 'utf8')) as { revisions: { revision: string }[] };
    expect(parsed.revisions.map((r) => r.revision)).toHaveLength(5);
  }, 240_000);

  it('serves Streamable HTTP with --http --port, which passes mcpengine validate', async () => {
    const child = spawn(
      process.execPath,
      [BIN, 'serve-openapi', SPEC, '--http', '--port', '0', '--base-url', 'http://127.0.0.1:9'],
      {
        env: { ...process.env, TODO_TOKEN_TOKEN: 'token-for-validation' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let err = '';
        child.stderr.on('data', (chunk: Buffer) => {
          err += chunk.toString();
          const match = /Streamable HTTP: (\S+)/.exec(err);
          if (match) resolve(match[1]!);
        });
        child.once('exit', () => reject(new Error(err)));
      });
      const { code, stdout } = await run(['validate', '--url', url]);
      expect(code, stdout).toBe(0);
    } finally {
      child.kill('SIGINT');
    }
  }, 240_000);
});

describe('mcpengine generate', () => {
  it('writes a project and reports it as JSON', async () => {
    const out = join(work, 'todo-server');
    const { code, stdout } = await run(['generate', SPEC, '--out', out, '--json']);
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as { name: string; tools: number; written: string[] };
    expect(result).toMatchObject({ name: 'todo', tools: 2 });
    expect(result.written).toContain('src/tools/todos.ts');
  });
});
