/**
 * The programs the README shows: each README code block tagged `<!-- example: <file> -->` is part of that file
 * (compared line by line, indentation aside), and the programs run: the client example starts the server
 * example over stdio, lists its tools and calls them.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const lines = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

describe('README examples', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/<!-- example: (\S+) -->\s*```ts\n([\s\S]*?)```/g)].map((match) => ({
    file: match[1]!,
    code: match[2]!,
  }));

  it('are tagged with the file they come from', () => {
    expect(blocks.map((block) => block.file)).toEqual([
      'examples/src/weather-server.ts',
      'examples/src/weather-server.ts',
      'examples/src/weather-client.ts',
    ]);
  });

  it.each(blocks.map((block, i) => [i + 1, block.file, block.code] as const))(
    'block %i is a part of %s',
    (_index, file, code) => {
      const source = lines(readFileSync(join(ROOT, file), 'utf8')).join('\n');
      expect(source).toContain(lines(code).join('\n'));
    },
  );

  it('run: the client starts the server, lists its tools and calls them', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [
      join(ROOT, 'examples/dist/weather-client.js'),
    ]);
    expect(stdout.trim().split('\n')).toEqual([
      'get_weather',
      'choose_city',
      'Sunny in Oslo',
      'You chose Oslo',
    ]);
  });
});
