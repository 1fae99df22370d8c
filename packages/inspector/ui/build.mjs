// Bundles the web UI into dist/ui with esbuild: one ES module, minified, Preact included (about 30 KB).
import { copyFileSync, mkdirSync } from 'node:fs';
import { build } from 'esbuild';

const here = new URL('.', import.meta.url);
const out = new URL('../dist/ui/', import.meta.url);
mkdirSync(out, { recursive: true });
const result = await build({
  entryPoints: [new URL('app.ts', here).pathname],
  bundle: true,
  format: 'esm',
  minify: true,
  target: 'es2022',
  outfile: new URL('app.js', out).pathname,
  metafile: true,
  logLevel: 'warning',
});
for (const file of ['index.html', 'app.css']) copyFileSync(new URL(file, here), new URL(file, out));
const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
// stderr: `npm start` prints only the command center's URL on stdout.
process.stderr.write(`inspector UI: ${bytes} bytes of JavaScript in dist/ui\n`);
