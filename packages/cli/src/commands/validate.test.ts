import { describe, expect, it } from 'vitest';
import { parseCommandArgs } from '../cli.js';
import { UsageError } from '../command.js';
import { validate, validateOptionsOf } from './validate.js';

const parseValidateArgs = (args: string[], env: Record<string, string>) =>
  validateOptionsOf(parseCommandArgs(validate, args).values, env, false);

describe('mcpengine validate arguments', () => {
  it('reads a stdio target with its environment and limits', async () => {
    const options = await parseValidateArgs(
      [
        '--stdio',
        'node s.js --x',
        '--env',
        'A=1',
        '--env=B=two=2',
        '--cwd',
        '/tmp',
        '--timeout',
        '500',
        '--revision',
        '2025-11-25',
        '--revision',
        '2024-11-05',
        '--call',
        'add',
        '--json',
        'r.json',
        '--ping-bound',
        '750',
        '--timings',
      ],
      {},
    );
    expect(options.pingBoundMs).toBe(750);
    expect(options.timings).toBe(true);
    expect(options.stdio).toEqual(['node', 's.js', '--x']);
    expect(options.env).toEqual({ A: '1', B: 'two=2' });
    expect(options.cwd).toBe('/tmp');
    expect(options.timeoutMs).toBe(500);
    expect(options.totalTimeoutMs).toBe(300_000);
    expect(options.revisions).toEqual(['2025-11-25', '2024-11-05']);
    expect(options.callTools).toEqual(['add']);
    expect(options.callAll).toBe(false);
    expect(options.json).toBe('r.json');
  });

  it('leaves the ping bound and the timings to their defaults', async () => {
    const options = await parseValidateArgs(['--stdio', 'node s.js'], {});
    expect(options.pingBoundMs).toBeUndefined();
    expect(options.timings).toBeUndefined();
  });

  it('reads an HTTP target with headers and a bearer token variable', async () => {
    const options = await parseValidateArgs(
      [
        '--url',
        'http://127.0.0.1:3000/mcp',
        '--header',
        'X-Trace: on',
        '--bearer-env',
        'TOKEN',
        '--transport',
        'sse',
        '--revision',
        'all',
      ],
      { TOKEN: 't' },
    );
    expect(options.url).toBe('http://127.0.0.1:3000/mcp');
    expect(options.headers).toEqual({ 'X-Trace': 'on' });
    expect(options.bearerEnv).toBe('TOKEN');
    expect(options.transport).toBe('sse');
    expect(options.revisions).toBeUndefined();
  });

  it('rejects what it cannot use, with the reason', async () => {
    const usage = async (args: string[]): Promise<string> => {
      try {
        await parseValidateArgs(args, {});
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    expect(await usage([])).toBe('give exactly one of --stdio and --url');
    expect(await usage(['--stdio', 'a', '--url', 'http://x/mcp'])).toBe(
      'give exactly one of --stdio and --url',
    );
    expect(await usage(['--url', 'ftp://x/mcp'])).toBe('--url must be http or https, got ftp:');
    expect(await usage(['--stdio', 'a', '--header', 'X: y'])).toBe(
      '--transport, --header and --bearer-env apply to --url only',
    );
    expect(await usage(['--stdio', 'a', '--env', 'NOEQUALS'])).toBe('--env needs KEY=VALUE, got "NOEQUALS"');
    expect(await usage(['--stdio', 'a', '--timeout=-1'])).toBe(
      '--timeout needs a positive number of milliseconds, got "-1"',
    );
    expect(await usage(['--stdio', 'a', '--timeout', '-1'])).toBe(
      '--timeout: a value starting with "-" must be written --timeout=<value>',
    );
    expect(await usage(['--stdio', 'a', '--ping-bound', '0'])).toBe(
      '--ping-bound needs a positive number of milliseconds, got "0"',
    );
    expect(await usage(['--stdio', 'a', '--no-such-option'])).toBe('unknown option --no-such-option');
    expect(await usage(['--stdio'])).toBe('--stdio needs a value');
    expect(await usage(['--stdio', 'a', 'stray'])).toBe('unexpected argument "stray"');
    expect(await usage(['--stdio', 'a', '--revision', '2023-01-01'])).toContain(
      '--revision must be one of 2024-11-05',
    );
  });
});
