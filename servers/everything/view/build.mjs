// Builds the chart view into one HTML document, dist/view/chart.html: esbuild bundles app.ts with
// @mcpengine/apps-view, then mcpengine/apps' readSingleFileView inlines the script into index.html.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { readSingleFileView } from 'mcpengine/apps';

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
const html = await readSingleFileView(out.pathname);
writeFileSync(new URL('chart.html', out), html);
// stderr: `npm start` prints only the command center's URL on stdout.
process.stderr.write(`everything chart view: ${html.length} bytes in dist/view/chart.html\n`);
