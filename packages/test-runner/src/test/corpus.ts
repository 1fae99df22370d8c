/**
 * Test support: the corpus of servers with tool bugs (packages/test-runner/corpus), and the three ways of testing
 * them — a declarative file, an mcp-jest config and generated tests — built for any corpus server.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseMcpJestConfig } from '../format/load-mcp-jest.js';
import { parseYamlSuite } from '../format/load-yaml.js';
import { runGenerated } from '../generate/generate.js';
import type { SuiteResult } from '../model.js';
import { runSuite } from '../run/run-suite.js';

export const CORPUS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'corpus');

export type Mode = 'yaml' | 'mcp-jest' | 'generate';

export interface CorpusEntry {
  readonly file: string;
  readonly path: string;
  readonly breaks: string;
  readonly caughtBy: readonly Mode[];
}

export function corpusEntries(): CorpusEntry[] {
  return readdirSync(CORPUS_DIR)
    .filter((file) => file.endsWith('.mjs') && !file.startsWith('_'))
    .sort()
    .map((file) => {
      const text = readFileSync(join(CORPUS_DIR, file), 'utf8');
      return {
        file,
        path: join(CORPUS_DIR, file),
        breaks: (/^\/\/ (Breaks[^\n]*)/m.exec(text)?.[1] ?? '').trim(),
        caughtBy: (/^\/\/ caught-by:(.*)$/m.exec(text)?.[1] ?? '')
          .trim()
          .split(/\s+/)
          .filter(Boolean) as Mode[],
      };
    });
}

export const TIMEOUT_MS = 2_000;

/** The declarative tests every corpus server is held to. */
export function yamlFor(path: string): string {
  return `name: corpus ${path}
server:
  command: ${JSON.stringify(process.execPath)}
  args: [${JSON.stringify(path)}]
timeout: ${TIMEOUT_MS}
tests:
  - name: add sums
    tool: add
    arguments: { a: 2, b: 3 }
    expect:
      structuredContent: { sum: 5 }
  - name: echo echoes
    tool: echo
    arguments: { text: hello }
    expect:
      text: hello
  - name: readme is readable
    resource: test://readme
    expect:
      text: Read me.
  - name: greeting greets
    prompt: greeting
    arguments: { person: Ada }
    expect:
      messages: { $length: { $gt: 0 } }
      text: { $contains: Ada }
`;
}

/** The same tests as an mcp-jest config (the format the seed's configs use). */
export function mcpJestFor(path: string): string {
  return JSON.stringify({
    server: { command: process.execPath, args: [path] },
    tests: {
      tools: {
        add: { args: { a: 2, b: 3 }, expect: 'structuredContent.sum === 5' },
        echo: { args: { text: 'hello' }, expect: "content[0].text === 'hello'" },
      },
      resources: { 'test://readme': { expect: 'contents.length > 0' } },
      prompts: { greeting: { args: { person: 'Ada' }, expect: 'messages && messages.length > 0' } },
      timeout: TIMEOUT_MS,
    },
  });
}

export async function runMode(mode: Mode, entry: CorpusEntry): Promise<SuiteResult> {
  if (mode === 'yaml')
    return runSuite(parseYamlSuite(join(CORPUS_DIR, `${entry.file}.mcp.yaml`), yamlFor(entry.path)));
  if (mode === 'mcp-jest')
    return runSuite(
      parseMcpJestConfig(join(CORPUS_DIR, `${entry.file}.mcp-jest.json`), mcpJestFor(entry.path)),
    );
  const { result } = await runGenerated({
    server: { kind: 'stdio', command: process.execPath, args: [entry.path] },
    serverSpec: { stdio: `node ${entry.path}` },
    revisions: ['auto'],
    timeoutMs: TIMEOUT_MS,
    cwd: CORPUS_DIR,
  });
  return result;
}
