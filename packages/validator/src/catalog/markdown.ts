/**
 * Reads a spec page (Mintlify MDX) into text blocks: paragraphs, list items and table rows, each with the heading
 * path above it. Code fences, diagrams and JSX tags are dropped; the text inside `<Note>`/`<Warning>` is kept,
 * because the spec states requirements there too.
 */

export interface TextBlock {
  readonly kind: 'paragraph' | 'item' | 'row';
  /** The heading titles above the block, outermost first (the page title is not included). */
  readonly headings: readonly string[];
  /** The anchor of the innermost heading, as the published page names it (`version-negotiation`). */
  readonly anchor: string;
  /** The block's text with Markdown markup removed. */
  readonly text: string;
  /** For a list item: the text that introduces its list (the paragraph or parent item before it). */
  readonly leadIn?: string;
  /** For a list item: nesting depth, 0 for a top-level item. */
  readonly depth?: number;
}

const FENCE = /^\s*(```|~~~)/;
const HEADING = /^(#{1,6})\s+(.*)$/;
const LIST_ITEM = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/;
const TABLE_ROW = /^\s*\|(.*)\|\s*$/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;
/** A line that is nothing but a JSX/HTML tag (opening, closing or self-closing). */
const TAG_LINE = /^\s*<\/?[A-Za-z][^>]*>\s*$/;

/** Mintlify's heading anchors: lower case, markup and punctuation dropped, spaces to hyphens. */
export function headingAnchor(title: string): string {
  return plainText(title)
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .trim()
    .replace(/\s+/g, '-');
}

/** Markdown inline markup to plain text: links keep their label, emphasis and code marks go, tags go. */
export function plainText(markdown: string): string {
  return decodeEntities(
    markdown
      .replace(/<[^>]+>/g, ' ')
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1')
      .replace(/(\*\*|__)(.+?)\1/g, '$2')
      .replace(/(^|[^*\w])\*(?!\s)([^*]+?)\*(?!\w)/g, '$1$2')
      .replace(/(^|[^_\w])_(?!\s)([^_]+?)_(?!\w)/g, '$1$2')
      .replace(/`([^`]*)`/g, '$1'),
  )
    .replace(/\s+/g, ' ')
    .trim();
}

export function decodeEntities(text: string): string {
  return text
    .replace(/&#x([0-9a-fA-F]+);/g, (_m, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_m, dec: string) => String.fromCodePoint(parseInt(dec, 10)))
    .replace(/&nbsp;/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

interface OpenItem {
  seq: number;
  indent: number;
  depth: number;
  lines: string[];
  leadIn: string | undefined;
}

export function markdownBlocks(source: string): TextBlock[] {
  const lines = stripFrontMatter(source).split('\n');
  const blocks: { seq: number; block: TextBlock }[] = [];
  let seq = 0;
  const headings: string[] = [];
  let anchor = '';
  let paragraph: string[] = [];
  /** The open list items, outermost first. */
  let items: OpenItem[] = [];
  /** The last paragraph, which introduces a list that follows it. */
  let lastParagraph: string | undefined;
  let table: { header: string[] } | undefined;
  let inFence = false;

  const flushParagraph = (): void => {
    if (paragraph.length === 0) return;
    const text = plainText(paragraph.join(' '));
    paragraph = [];
    if (text === '') return;
    blocks.push({ seq: seq++, block: { kind: 'paragraph', headings: [...headings], anchor, text } });
    lastParagraph = text;
  };
  const closeItemsFrom = (index: number): void => {
    for (const item of items.slice(index).reverse()) {
      const text = plainText(item.lines.join(' '));
      if (text === '') continue;
      blocks.push({
        seq: item.seq,
        block: {
          kind: 'item',
          headings: [...headings],
          anchor,
          text,
          depth: item.depth,
          ...(item.leadIn === undefined ? {} : { leadIn: item.leadIn }),
        },
      });
    }
    items = items.slice(0, index);
  };
  const flushAll = (): void => {
    flushParagraph();
    closeItemsFrom(0);
  };

  for (const raw of lines) {
    if (FENCE.test(raw)) {
      flushAll();
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    const line = raw.replace(/^\s*>\s?/, '');

    const heading = HEADING.exec(line);
    if (heading) {
      flushAll();
      lastParagraph = undefined;
      table = undefined;
      const level = heading[1]!.length;
      const title = plainText(heading[2]!);
      // `#` is the page title in a few pages; sections start at `##`.
      headings.splice(Math.max(0, level - 2));
      if (level >= 2) headings.push(title);
      anchor = headingAnchor(heading[2]!);
      continue;
    }
    if (line.trim() === '' || TAG_LINE.test(line)) {
      // A blank line ends a paragraph, but a list continues across blank lines until something else starts.
      flushParagraph();
      if (TAG_LINE.test(line)) closeItemsFrom(0);
      table = undefined;
      continue;
    }
    if (TABLE_ROW.test(line)) {
      flushAll();
      if (TABLE_SEPARATOR.test(line)) continue;
      const cells = line
        .trim()
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((cell) => plainText(cell));
      if (table === undefined) {
        table = { header: cells };
        continue;
      }
      const text = cells
        .map((cell, index) => {
          const name = table?.header[index];
          return name ? `${name}: ${cell}` : cell;
        })
        .join('; ');
      blocks.push({ seq: seq++, block: { kind: 'row', headings: [...headings], anchor, text } });
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      flushParagraph();
      const indent = item[1]!.length;
      let keep = items.findIndex((open) => open.indent >= indent);
      if (keep === -1) keep = items.length;
      closeItemsFrom(keep);
      const parent = items[items.length - 1];
      const leadIn = parent ? plainText(parent.lines.join(' ')) : lastParagraph;
      items.push({ seq: seq++, indent, depth: items.length, lines: [item[3]!], leadIn });
      continue;
    }
    if (items.length > 0 && (/^\s+/.test(raw) || paragraph.length === 0)) {
      // A continuation line of the innermost open item.
      const open = items[items.length - 1]!;
      if (/^\s+/.test(raw)) {
        open.lines.push(line.trim());
        continue;
      }
      closeItemsFrom(0);
    }
    paragraph.push(line.trim());
  }
  flushAll();
  // Items are pushed when their list closes (children before parents); sorting restores document order.
  return blocks.sort((a, b) => a.seq - b.seq).map((entry) => entry.block);
}

function stripFrontMatter(source: string): string {
  if (!source.startsWith('---')) return source;
  const end = source.indexOf('\n---', 3);
  return end === -1 ? source : source.slice(end + 4);
}
