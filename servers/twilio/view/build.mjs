// Builds the message log into one HTML document, dist/view/message-log.html: esbuild bundles app.ts
// with @mcpengine/apps-view, then mcpengine/apps' readSingleFileView inlines the script into index.html (no CDN,
// nothing fetched when a host renders it).
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
writeFileSync(new URL('message-log.html', out), html);
process.stdout.write(`twilio message log view: ${html.length} bytes in dist/view/message-log.html\n`);
