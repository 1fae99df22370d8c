import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboundProblem, TransportHandlers } from '../transport.js';
import {
  DEFAULT_INHERITED_ENV_VARS,
  StdioClientTransport,
  StdioProcessExitError,
  type StdioClientTransportOptions,
} from './index.js';

/** Small servers, written to a temp dir: each behaves in one specific way at shutdown. */
const SCRIPTS = {
  echo: `
    import { createInterface } from 'node:readline';
    process.stderr.write('echo: ready ✓\\n');
    const lines = createInterface({ input: process.stdin });
    lines.on('line', (line) => process.stdout.write(line + '\\n'));
    lines.on('close', () => process.exit(0));
  `,
  // Keeps running after stdin closes: close() must escalate to SIGTERM.
  ignoresStdinClose: `
    process.stdin.resume();
    setInterval(() => {}, 1000);
    process.stdout.write('{"ready":true}\\n');
  `,
  // Survives SIGTERM too: close() must escalate to SIGKILL.
  ignoresSigterm: `
    process.on('SIGTERM', () => {});
    process.stdin.resume();
    setInterval(() => {}, 1000);
    process.stdout.write('{"ready":true}\\n');
  `,
  crashes: `
    process.stdout.write('{"last":"words"}\\n');
    process.exitCode = 3;
  `,
  killsItself: `
    process.kill(process.pid, 'SIGKILL');
  `,
  printsEnv: `
    process.stdout.write(JSON.stringify(process.env) + '\\n');
    process.stdin.resume();
    process.stdin.on('end', () => process.exit(0));
  `,
  writesOversized: `
    process.stdout.write('"' + 'x'.repeat(2000) + '"\\n{"ok":true}\\n');
    process.stdin.resume();
    process.stdin.on('end', () => process.exit(0));
  `,
} as const;

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcpengine-stdio-'));
  await Promise.all(
    Object.entries(SCRIPTS).map(([name, source]) => writeFile(join(dir, `${name}.mjs`), source)),
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Recorder extends TransportHandlers {
  readonly messages: string[];
  readonly problems: InboundProblem[];
  readonly closes: (Error | undefined)[];
  /** Resolves with the first `count` messages. */
  received(count: number): Promise<string[]>;
  closed(): Promise<Error | undefined>;
}

function recorder(): Recorder {
  const messages: string[] = [];
  const problems: InboundProblem[] = [];
  const closes: (Error | undefined)[] = [];
  const waiters: (() => void)[] = [];
  const notify = (): void => waiters.splice(0).forEach((wake) => wake());
  const until = async (ready: () => boolean): Promise<void> => {
    while (!ready()) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  return {
    messages,
    problems,
    closes,
    message: (text) => {
      messages.push(text);
      notify();
    },
    invalid: (problem) => {
      problems.push(problem);
      notify();
    },
    close: (error) => {
      closes.push(error);
      notify();
    },
    received: async (count) => {
      await until(() => messages.length >= count);
      return messages.slice(0, count);
    },
    closed: async () => {
      await until(() => closes.length > 0);
      return closes[0];
    },
  };
}

function server(script: keyof typeof SCRIPTS, options: Partial<StdioClientTransportOptions> = {}) {
  return new StdioClientTransport({
    command: process.execPath,
    args: [join(dir, `${script}.mjs`)],
    stderr: 'ignore',
    ...options,
  });
}

describe('StdioClientTransport', () => {
  it('exchanges messages, captures stderr, and shuts down by closing stdin', async () => {
    const stderr: string[] = [];
    const transport = server('echo', { stderr: undefined, onStderr: (chunk) => stderr.push(chunk) });
    const handlers = recorder();
    await transport.start(handlers);
    expect(transport.pid).toBeGreaterThan(0);
    transport.send('{"id":1}');
    transport.send('{"id":2,"text":"héllo 😀"}');
    expect(await handlers.received(2)).toEqual(['{"id":1}', '{"id":2,"text":"héllo 😀"}']);
    await transport.close();
    expect(transport.exitStatus).toEqual({ code: 0, signal: null });
    expect(handlers.closes).toEqual([undefined]);
    expect(stderr.join('')).toContain('echo: ready ✓');
    expect(() => transport.send('{}')).toThrow(/closed/);
    await transport.close(); // idempotent
  });

  it('escalates to SIGTERM when the server ignores stdin closing', async () => {
    const transport = server('ignoresStdinClose', { shutdownTimeoutMs: 50 });
    const handlers = recorder();
    await transport.start(handlers);
    await handlers.received(1);
    await transport.close();
    expect(transport.exitStatus).toEqual({ code: null, signal: 'SIGTERM' });
    expect(handlers.closes).toEqual([undefined]);
  });

  it('escalates to SIGKILL when the server ignores SIGTERM', async () => {
    const transport = server('ignoresSigterm', { shutdownTimeoutMs: 50 });
    const handlers = recorder();
    await transport.start(handlers);
    await handlers.received(1); // the SIGTERM handler is installed
    await transport.close();
    expect(transport.exitStatus).toEqual({ code: null, signal: 'SIGKILL' });
  });

  it('reports an unexpected exit with its code, after delivering what the server wrote', async () => {
    const transport = server('crashes');
    const handlers = recorder();
    await transport.start(handlers);
    const error = await handlers.closed();
    expect(handlers.messages).toEqual(['{"last":"words"}']);
    expect(error).toBeInstanceOf(StdioProcessExitError);
    expect(error).toMatchObject({ exitCode: 3, signal: null });
    expect(transport.exitStatus).toEqual({ code: 3, signal: null });
    expect(() => transport.send('{}')).toThrow(/closed/);
    await transport.close();
    expect(handlers.closes).toHaveLength(1);
  });

  it('reports death by signal', async () => {
    const transport = server('killsItself');
    const handlers = recorder();
    await transport.start(handlers);
    const error = await handlers.closed();
    expect(error).toMatchObject({ exitCode: null, signal: 'SIGKILL' });
    expect(error?.message).toMatch(/SIGKILL/);
  });

  it('rejects start with a clear error when the command does not exist', async () => {
    const transport = new StdioClientTransport({ command: join(dir, 'no-such-server') });
    const handlers = recorder();
    await expect(transport.start(handlers)).rejects.toThrow(
      /Cannot start MCP server .*ENOENT.*command not found/,
    );
    expect(handlers.closes).toEqual([]);
    expect(() => transport.send('{}')).toThrow(/closed/);
    await transport.close();
  });

  it('does not wait for an exit when close() races a failing start', async () => {
    const transport = new StdioClientTransport({
      command: join(dir, 'no-such-server'),
      shutdownTimeoutMs: 10_000,
    });
    const started = performance.now();
    const starting = transport.start(recorder());
    await transport.close();
    await expect(starting).rejects.toThrow(/ENOENT/);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('passes only a minimal environment by default, plus what is asked for', async () => {
    process.env['MCPENGINE_TEST_SECRET'] = 'hunter2';
    try {
      const run = async (options: Partial<StdioClientTransportOptions>): Promise<Record<string, string>> => {
        const transport = server('printsEnv', options);
        const handlers = recorder();
        await transport.start(handlers);
        const [env] = await handlers.received(1);
        await transport.close();
        return JSON.parse(env!) as Record<string, string>;
      };

      const minimal = await run({ env: { EXTRA: '1' } });
      expect(minimal['EXTRA']).toBe('1');
      expect(minimal['MCPENGINE_TEST_SECRET']).toBeUndefined();
      for (const name of Object.keys(minimal)) {
        expect([...DEFAULT_INHERITED_ENV_VARS, 'EXTRA']).toContain(name);
      }
      if (process.env['PATH'] !== undefined) expect(minimal['PATH']).toBe(process.env['PATH']);

      const chosen = await run({ inheritEnv: ['MCPENGINE_TEST_SECRET'] });
      expect(chosen).toEqual({ MCPENGINE_TEST_SECRET: 'hunter2' });

      expect((await run({ inheritEnv: true }))['MCPENGINE_TEST_SECRET']).toBe('hunter2');
      expect(await run({ inheritEnv: false, env: { ONLY: 'this' } })).toEqual({ ONLY: 'this' });
    } finally {
      delete process.env['MCPENGINE_TEST_SECRET'];
    }
  });

  it('reports an oversized message from the server and keeps going', async () => {
    const transport = server('writesOversized', { maxMessageBytes: 1000 });
    const handlers = recorder();
    await transport.start(handlers);
    expect(await handlers.received(1)).toEqual(['{"ok":true}']);
    expect(handlers.problems).toEqual([{ kind: 'too-large', limit: 1000, size: 2002 }]);
    await transport.close();
  });

  it('refuses send before start and a second start', async () => {
    const transport = server('echo');
    expect(() => transport.send('{}')).toThrow(/not been started/);
    await transport.start(recorder());
    await expect(transport.start(recorder())).rejects.toThrow(/only once/);
    await transport.close();
  });
});
