/**
 * What `--apps` reads in a View's HTML without a browser: whether it is an HTML5 document, and which remote
 * origins its scripts and style sheets come from.
 */

/** An HTML5 document starts with `<!DOCTYPE html>` (after a byte-order mark, whitespace and comments). */
export function html5Problem(html: string): string | undefined {
  const start = html.replace(/^\uFEFF/, '').replace(/^(\s|<!--[\s\S]*?-->)*/, '');
  if (!/^<!doctype html(\s+system\s+(["'])about:legacy-compat\2)?\s*>/i.test(start))
    return `the document does not start with <!DOCTYPE html> (it starts with ${JSON.stringify(start.slice(0, 40))})`;
  if (!/<(html|head|body|script|div|main|p|h1|title)\b/i.test(start))
    return 'the document has no element after its doctype';
  return undefined;
}

/**
 * Origins the document loads scripts or styles from: `<script src>`, `<link rel=stylesheet href>` (also
 * `preload`/`modulepreload` of scripts and styles) and CSS `@import`. Protocol-relative URLs count as https.
 */
export function remoteAssetOrigins(html: string): { origin: string; what: string }[] {
  const found: { origin: string; what: string }[] = [];
  const add = (url: string, what: string) => {
    const absolute = url.startsWith('//') ? `https:${url}` : url;
    if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(absolute)) return;
    try {
      found.push({ origin: new URL(absolute).origin, what });
    } catch {
      // Not a URL: nothing loads from it.
    }
  };
  const attribute = (tag: string, name: string) =>
    new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  for (const tag of html.match(/<script\b[^>]*>/gi) ?? []) {
    const src = attribute(tag, 'src');
    if (src) add(src[2] ?? src[3] ?? src[4] ?? '', 'script');
  }
  for (const tag of html.match(/<link\b[^>]*>/gi) ?? []) {
    const rel = (
      attribute(tag, 'rel')
        ?.slice(2)
        .find((v) => v !== undefined) ?? ''
    ).toLowerCase();
    if (!/stylesheet|modulepreload|preload/.test(rel)) continue;
    const href = attribute(tag, 'href');
    if (href) add(href[2] ?? href[3] ?? href[4] ?? '', rel.includes('stylesheet') ? 'style sheet' : rel);
  }
  for (const match of html.matchAll(/@import\s+(?:url\()?\s*["']?([^"')\s;]+)/gi))
    add(match[1]!, 'CSS @import');
  return found;
}

/** Whether `origin` is allowed by a declared source (exact origin, or a `*.` wildcard subdomain source). */
export function declaredAllows(declared: readonly string[], origin: string): boolean {
  const target = new URL(origin);
  return declared.some((source) => {
    const wildcard = /^([a-z][a-z0-9+.-]*):\/\/\*\.(.+)$/i.exec(source.replace(/\/$/, ''));
    if (wildcard === null) {
      try {
        return new URL(source).origin === target.origin;
      } catch {
        return false;
      }
    }
    return (
      `${wildcard[1]!.toLowerCase()}:` === target.protocol &&
      target.host.toLowerCase().endsWith(`.${wildcard[2]!.toLowerCase()}`)
    );
  });
}
