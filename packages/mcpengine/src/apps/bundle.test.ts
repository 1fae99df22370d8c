/** Shipping a view as one HTML document from a build directory laid out like Vite's `dist/`. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build as viteBuild } from 'vite';
import { afterEach, describe, expect, it } from 'vitest';
import { readSingleFileView } from './index.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function build(indexHtml: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'mcpengine-view-'));
  dirs.push(dir);
  await mkdir(join(dir, 'assets'));
  await writeFile(join(dir, 'index.html'), indexHtml);
  await writeFile(join(dir, 'assets', 'index-abc.js'), 'document.title = "</script>" + "$&";\n');
  await writeFile(join(dir, 'assets', 'vendor-def.js'), 'export const v = 1;\n');
  await writeFile(join(dir, 'assets', 'index-abc.css'), 'body { color: red; }\n');
  return dir;
}

const VITE_INDEX = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/vendor-def.js">
    <link rel="stylesheet" crossorigin href="/assets/index-abc.css">
  </head>
  <body><div id="app"></div></body>
</html>`;

describe('readSingleFileView', () => {
  it('inlines the local script and stylesheet of a Vite build into one document', async () => {
    const html = await readSingleFileView(await build(VITE_INDEX));
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<script type="module">document.title = "<\\/script>" + "$&";\n</script>');
    expect(html).toContain('<style>body { color: red; }\n</style>');
    expect(html).not.toMatch(/src=|href=|modulepreload/);
  });

  it('turns a real `vite build` output into one document', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcpengine-vite-'));
    dirs.push(dir);
    await writeFile(
      join(dir, 'index.html'),
      '<!doctype html><html><head><link rel="stylesheet" href="/style.css"></head>' +
        '<body><p id="out"></p><script type="module" src="/main.js"></script></body></html>',
    );
    await writeFile(join(dir, 'style.css'), 'p { color: rgb(1, 2, 3); }\n');
    await writeFile(join(dir, 'main.js'), 'document.getElementById("out").textContent = "built by vite";\n');
    await viteBuild({ root: dir, logLevel: 'silent', configFile: false, build: { outDir: 'dist' } });
    const html = await readSingleFileView(join(dir, 'dist'));
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toContain('built by vite');
    expect(html).toMatch(/<style>p\s*\{\s*color:\s*(#010203|rgb\(1, ?2, ?3\))/);
    expect(html).not.toMatch(/<script[^>]*\bsrc=|<link[^>]*stylesheet/);
  });

  it('refuses remote assets and paths outside the build', async () => {
    const remote = VITE_INDEX.replace('/assets/index-abc.js', 'https://cdn.example.com/x.js');
    await expect(readSingleFileView(await build(remote))).rejects.toThrow(/remote/);
    const outside = VITE_INDEX.replace('/assets/index-abc.css', '../../etc/passwd');
    await expect(readSingleFileView(await build(outside))).rejects.toThrow(/outside its build/);
  });
});
