/**
 * Markdown from a server, rendered safely: parsed here into Preact elements — never into an HTML string, so
 * markup in the text stays text and nothing the server wrote can run. Links open only for http(s) and mailto
 * (rel="noopener noreferrer"); images are not loaded (shown as their alt text and address).
 */
import { h, type ComponentChild } from 'preact';

const SAFE_LINK = /^(https?:|mailto:)/i;

export function Markdown({ text }: { text: string }): ComponentChild {
  return h('div', { class: 'markdown' }, blocks(text.slice(0, 200_000)));
}

function blocks(text: string): ComponentChild[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const out: ComponentChild[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index]!;
    const fence = /^(```|~~~)/.exec(line);
    if (fence) {
      const code: string[] = [];
      index++;
      while (index < lines.length && !lines[index]!.startsWith(fence[1]!)) code.push(lines[index++]!);
      index++;
      out.push(h('pre', null, h('code', null, code.join('\n'))));
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      out.push(h(`h${Math.min(6, heading[1]!.length + 2)}`, null, inline(heading[2]!)));
      index++;
      continue;
    }
    if (/^\s*([-*+]|\d+[.)])\s+/.test(line)) {
      const ordered = /^\s*\d/.test(line);
      const items: ComponentChild[] = [];
      while (index < lines.length && /^\s*([-*+]|\d+[.)])\s+/.test(lines[index]!))
        items.push(h('li', null, inline(lines[index++]!.replace(/^\s*([-*+]|\d+[.)])\s+/, ''))));
      out.push(h(ordered ? 'ol' : 'ul', null, items));
      continue;
    }
    if (/^>\s?/.test(line)) {
      const quoted: string[] = [];
      while (index < lines.length && /^>\s?/.test(lines[index]!))
        quoted.push(lines[index++]!.replace(/^>\s?/, ''));
      out.push(h('blockquote', null, inline(quoted.join(' '))));
      continue;
    }
    if (line.trim() === '') {
      index++;
      continue;
    }
    const paragraph: string[] = [];
    while (
      index < lines.length &&
      lines[index]!.trim() !== '' &&
      !/^(```|~~~|#{1,6}\s|>|\s*([-*+]|\d+[.)])\s+)/.test(lines[index]!)
    )
      paragraph.push(lines[index++]!);
    out.push(h('p', null, inline(paragraph.join(' '))));
  }
  return out;
}

/** Inline code, images, links, bold, italic; everything else is text. */
function inline(text: string): ComponentChild[] {
  const out: ComponentChild[] = [];
  const pattern =
    /`([^`]+)`|!\[([^\]]*)\]\(([^)\s]+)\)|\[([^\]]+)\]\(([^)\s]+)\)|\*\*([^*]+)\*\*|__([^_]+)__|\*([^*]+)\*|_([^_]+)_/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) out.push(text.slice(last, match.index));
    last = match.index + match[0].length;
    if (match[1] !== undefined) out.push(h('code', null, match[1]));
    else if (match[3] !== undefined) out.push(`[image: ${match[2] ?? ''} ${match[3]}]`);
    else if (match[5] !== undefined)
      out.push(
        SAFE_LINK.test(match[5])
          ? h('a', { href: match[5], target: '_blank', rel: 'noopener noreferrer' }, inline(match[4]!))
          : `${match[4]!} (${match[5]})`,
      );
    else if (match[6] !== undefined || match[7] !== undefined)
      out.push(h('strong', null, inline(match[6] ?? match[7]!)));
    else out.push(h('em', null, inline(match[8] ?? match[9]!)));
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}
