/**
 * docs/apps.md: its tagged blocks are parts of the files they name, and the tasks app works as the doc says — UI
 * metadata and the app-only tool for a client that declares MCP Apps, plain tools and text for one that does not,
 * the view as one HTML document with the server's data escaped.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_MIME_TYPE, APPS_EXTENSION } from 'mcpengine/apps';
import { Client } from 'mcpengine/client';
import { createMemoryTransportPair } from 'mcpengine/memory';
import { createTasksServer } from './tasks-app.js';

const ROOT = resolve(import.meta.dirname, '../..');
const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

async function connect(withApps: boolean) {
  const server = createTasksServer('Ada <admin>', [
    { id: 1, title: 'Write the report', done: false },
    { id: 2, title: '</script><b>x</b>', done: false },
  ]);
  const client = new Client({
    name: withApps ? 'apps-host' : 'text-client',
    version: '1.0.0',
    capabilities: withApps ? { extensions: { [APPS_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } } } : {},
  });
  const [clientSide, serverSide] = createMemoryTransportPair();
  await server.connect(serverSide);
  return client.connect(clientSide);
}

describe('docs/apps.md', () => {
  const doc = readFileSync(join(ROOT, 'docs/apps.md'), 'utf8');
  const blocks = [...doc.matchAll(/<!-- example: (\S+) -->\s*```\w+\n([\s\S]*?)```/g)].map((m) => ({
    file: m[1]!,
    code: m[2]!,
  }));

  it('tags its examples with the files they come from', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(3);
  });

  it.each(blocks.map((b, i) => [i + 1, b.file, b.code] as const))(
    'block %i is part of %s',
    (_i, file, code) => {
      expect(lines(readFileSync(join(ROOT, file), 'utf8')).join('\n')).toContain(lines(code).join('\n'));
    },
  );
});

describe('the tasks app', () => {
  it('shows UI metadata and the app-only tool to an Apps host, and the view as one escaped document', async () => {
    const session = await connect(true);
    const tools = Object.fromEntries((await session.listAllTools()).map((t) => [t.name, t]));
    expect(tools.show_tasks!._meta).toEqual({
      ui: { resourceUri: 'ui://tasks/board.html' },
      'ui/resourceUri': 'ui://tasks/board.html',
    });
    expect(tools.complete_task!._meta?.ui).toEqual({
      resourceUri: 'ui://tasks/board.html',
      visibility: ['app'],
    });
    const read = await session.readResource({ uri: 'ui://tasks/board.html' });
    const view = read.contents[0] as { mimeType: string; text: string };
    expect(view.mimeType).toBe(APP_MIME_TYPE);
    expect(view.text).toMatch(/^<!doctype html>/);
    expect(view.text).not.toMatch(/<script[^>]*\bsrc=/); // one document, the bridge inlined
    expect(view.text).toContain("<h1>Ada &lt;admin&gt;'s tasks</h1>");
    expect(view.text).not.toContain('</script><b>x</b>');
    const done = await session.callTool({ name: 'complete_task', arguments: { id: 1 } });
    expect(done.content).toEqual([{ type: 'text', text: 'Done: Write the report' }]);
    await session.close();
  });

  it('gives a client without Apps plain tools and a text answer', async () => {
    const session = await connect(false);
    const tools = await session.listAllTools();
    expect(tools.map((t) => t.name)).toEqual(['show_tasks']);
    expect(tools[0]!._meta).toBeUndefined();
    const result = await session.callTool({ name: 'show_tasks' });
    expect(result.content).toEqual([
      { type: 'text', text: '[ ] 1. Write the report\n[ ] 2. </script><b>x</b>' },
    ]);
    await session.close();
  });
});
