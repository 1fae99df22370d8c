// Builds the tasks board view into dist/view/ (index.html + app.js); the server inlines them when it reads the
// view (readSingleFileView). With Vite, `vite build` produces the same kind of directory.
import { copyFileSync, mkdirSync } from 'node:fs';
import { build } from 'esbuild';

const here = new URL('.', import.meta.url);
const out = new URL('../dist/view/', import.meta.url);
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [new URL('app.ts', here).pathname],
  bundle: true,
  format: 'esm',
  minify: true,
  target: 'es2022',
  conditions: ['@mcpengine/source'],
  outfile: new URL('app.js', out).pathname,
  logLevel: 'warning',
});
copyFileSync(new URL('index.html', here), new URL('index.html', out));
