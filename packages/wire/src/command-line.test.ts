import { describe, expect, it } from 'vitest';
import { splitCommandLine } from './command-line.js';

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
