/**
 * Reads the schema reference page (`schema.mdx`: Markdown headings around TypeDoc HTML) into text blocks.
 *
 * Only the doc comments carry prose: signatures and examples are dropped. A member inherited from another type
 * repeats its parent's comment word for word, so inherited members are skipped and each comment is read once,
 * under the type that declares it.
 */
import { decodeEntities, headingAnchor, plainText, type TextBlock } from './markdown.js';

const TOKEN =
  /^(#{2,4})\s+(.+)$|<section class="([^"]*)"|<\/section>|<details[^>]*>|<\/details>|<pre[^>]*>|<\/pre>|id="([^"]+)" data-typedoc-h|<(p|li)>([\s\S]*?)<\/\5>/gm;

export function typedocBlocks(source: string): TextBlock[] {
  const blocks: TextBlock[] = [];
  const headings: string[] = [];
  let anchor = '';
  let inherited = false;
  let hidden = 0;
  let lastParagraph: string | undefined;
  for (const match of source.matchAll(TOKEN)) {
    const [token, hashes, title, sectionClass, memberAnchor, , inner] = match;
    if (hashes !== undefined && title !== undefined) {
      const level = hashes.length;
      headings.splice(Math.max(0, level - 2));
      headings.push(plainText(title));
      anchor = headingAnchor(title);
      inherited = false;
      lastParagraph = undefined;
      continue;
    }
    if (sectionClass !== undefined) {
      inherited = sectionClass.includes('tsd-is-inherited');
      continue;
    }
    if (token === '</section>') {
      inherited = false;
      continue;
    }
    if (token.startsWith('<details') || token.startsWith('<pre')) {
      hidden++;
      continue;
    }
    if (token === '</details>' || token === '</pre>') {
      hidden = Math.max(0, hidden - 1);
      continue;
    }
    if (memberAnchor !== undefined) {
      anchor = memberAnchor;
      continue;
    }
    if (inner === undefined || inherited || hidden > 0) continue;
    const text = plainText(decodeEntities(inner.replace(/<[^>]+>/g, ' ')));
    if (text === '') continue;
    if (token.startsWith('<li')) {
      const leadIn = lastParagraph === undefined ? {} : { leadIn: lastParagraph };
      blocks.push({ kind: 'item', headings: [...headings], anchor, text, depth: 0, ...leadIn });
    } else {
      blocks.push({ kind: 'paragraph', headings: [...headings], anchor, text });
      lastParagraph = text;
    }
  }
  return blocks;
}
