/**
 * Ship a view as one HTML document. A host renders an app resource without any server behind it, so every script
 * and stylesheet must be inside the document. `inlineHtmlAssets` turns a build's `index.html` (Vite, esbuild …)
 * into that document by inlining the local `<script src>` and `<link rel="stylesheet" href>` it references;
 * `readSingleFileView(dir)` reads `dir/index.html` and does it. (With Vite, `vite-plugin-singlefile` produces the
 * same result at build time; see docs/apps.md.) Remote scripts and stylesheets are refused: declare their origins
 * in `csp.resourceDomains` and load them yourself if you really need them.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { assertHtmlDocument } from './server.js';

const SCRIPT = /<script\b([^>]*?)\bsrc\s*=\s*["']([^"']+)["']([^>]*)>\s*<\/script>/gi;
const LINK = /<link\b[^>]*>/gi;
const ATTR = (name: string) => new RegExp(`\\b${name}\\s*=\\s*["']([^"']+)["']`, 'i');
const REMOTE = /^([a-z][a-z0-9+.-]*:)?\/\//i;

function localPath(root: string, baseDir: string, ref: string): string {
  if (REMOTE.test(ref) || /^[a-z][a-z0-9+.-]*:/i.test(ref))
    throw new Error(`The view references ${ref}: remote or non-file assets cannot be inlined`);
  const clean = ref.split(/[?#]/)[0]!;
  const path = clean.startsWith('/') ? join(root, clean) : resolve(baseDir, clean);
  const rel = relative(root, path);
  if (rel.startsWith('..') || rel.startsWith(sep))
    throw new Error(`The view references ${ref} outside its build`);
  return path;
}

/** Inlines the local scripts and stylesheets an HTML document references; paths resolve against `baseDir`. */
export async function inlineHtmlAssets(
  html: string,
  baseDir: string,
  root: string = baseDir,
): Promise<string> {
  const files = new Map<string, string>();
  const load = async (ref: string) => {
    const path = localPath(root, baseDir, ref);
    if (!files.has(ref)) files.set(ref, await readFile(path, 'utf8'));
  };
  for (const match of html.matchAll(SCRIPT)) await load(match[2]!);
  for (const match of html.matchAll(LINK)) {
    const tag = match[0];
    if (!/\brel\s*=\s*["']?stylesheet/i.test(tag)) {
      const href = ATTR('href').exec(tag)?.[1];
      if (/\brel\s*=\s*["']?(modulepreload|preload)/i.test(tag) && href) localPath(root, baseDir, href);
      continue;
    }
    const href = ATTR('href').exec(tag)?.[1];
    if (href) await load(href);
  }
  let out = html.replace(SCRIPT, (_all, before: string, src: string, after: string) => {
    const attrs = `${before}${after}`.replace(/\s*\bcrossorigin\b(\s*=\s*["'][^"']*["'])?/gi, '').trim();
    const code = files
      .get(src)!
      .replace(/<\/(script)/gi, '<\\/$1')
      .replace(/<!--/g, '<\\!--');
    return `<script${attrs ? ` ${attrs}` : ''}>${code}</script>`;
  });
  out = out.replace(LINK, (tag) => {
    const href = ATTR('href').exec(tag)?.[1];
    if (/\brel\s*=\s*["']?(modulepreload|preload)/i.test(tag)) return '';
    if (!href || !/\brel\s*=\s*["']?stylesheet/i.test(tag)) return tag;
    return `<style>${files.get(href)!.replace(/<\/(style)/gi, '<\\/$1')}</style>`;
  });
  return out;
}

/** Reads a build directory's `index.html` (or `entry`) and returns it as one self-contained HTML5 document. */
export async function readSingleFileView(dir: string, entry = 'index.html'): Promise<string> {
  const file = resolve(dir, entry);
  const html = await inlineHtmlAssets(await readFile(file, 'utf8'), dirname(file), resolve(dir));
  assertHtmlDocument(html, file);
  return html;
}
