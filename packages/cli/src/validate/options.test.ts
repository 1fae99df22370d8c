import { describe, expect, it } from 'vitest';
import { parseValidateArgs, UsageError } from './options.js';
import { splitCommandLine } from './shell-words.js';

describe('splitCommandLine', () => {
  it('splits like a POSIX shell, without expanding anything', () => {
    expect(splitCommandLine(`node server.js --name 'a b' "c \\"d\\"" e\\ f $HOME`)).toEqual([
      'node',
      'server.js',
      '--name',
      'a b',
      'c "d"',
      'e f',
      '$HOME',
    ]);
    expect(splitCommandLine(`  npx  -y   pkg  `)).toEqual(['npx', '-y', 'pkg']);
    expect(splitCommandLine(`say ''`)).toEqual(['say', '']);
  });

  it('refuses an unterminated quote', () => {
    expect(() => splitCommandLine(`node "server.js`)).toThrow('unterminated " quote in command line');
  });
});

describe('parseValidateArgs', () => {
  it('reads a stdio target with its environment and limits', () => {
    const options = parseValidateArgs(
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
      ],
      {},
    );
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

  it('reads an HTTP target with headers and a bearer token variable', () => {
    const options = parseValidateArgs(
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

  it('rejects what it cannot use, with the reason', () => {
    const usage = (args: string[]): string => {
      try {
        parseValidateArgs(args, {});
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    expect(usage([])).toBe('give exactly one of --stdio and --url');
    expect(usage(['--stdio', 'a', '--url', 'http://x/mcp'])).toBe('give exactly one of --stdio and --url');
    expect(usage(['--url', 'ftp://x/mcp'])).toBe('--url must be http or https, got ftp:');
    expect(usage(['--stdio', 'a', '--header', 'X: y'])).toBe(
      '--transport, --header and --bearer-env apply to --url only',
    );
    expect(usage(['--stdio', 'a', '--env', 'NOEQUALS'])).toBe('--env needs KEY=VALUE, got "NOEQUALS"');
    expect(usage(['--stdio', 'a', '--timeout', '-1'])).toBe(
      '--timeout needs a positive number of milliseconds, got "-1"',
    );
    expect(usage(['--stdio', 'a', '--revision', '2023-01-01'])).toContain(
      '--revision must be one of 2024-11-05',
    );
  });
});
