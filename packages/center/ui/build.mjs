// Bundles the dashboard (ui/app.ts → dist/ui/app.js) with esbuild and copies its page and stylesheet.
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', 'dist', 'ui');
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [join(here, 'app.ts')],
  outfile: join(out, 'app.js'),
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2022',
  logLevel: 'warning',
});
copyFileSync(join(here, 'index.html'), join(out, 'index.html'));
copyFileSync(join(here, 'app.css'), join(out, 'app.css'));
