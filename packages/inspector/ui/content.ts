/** Server content, by type: text is text (never HTML), media are `data:` URLs. */
import { h, type ComponentChild } from 'preact';
import { useState } from 'preact/hooks';
import type { Json } from './api.js';
import { Markdown } from './markdown.js';

export function contentText(content: unknown): string {
  const block = content as Json | undefined;
  return block?.['type'] === 'text' ? String(block['text']) : JSON.stringify(content);
}

export /** One content block, by type; text is text (never HTML), media are `data:` URLs. */
function ContentBlock({ block }: { block: Json }): ComponentChild {
  const type = block['type'];
  const mime = String(block['mimeType'] ?? '');
  if (type === 'text') return h(TextContent, { text: String(block['text']), markdown: false });
  if (type === 'image')
    return h('img', { alt: 'image from the server', src: `data:${mime};base64,${String(block['data'])}` });
  if (type === 'audio')
    return h('audio', { controls: true, src: `data:${mime};base64,${String(block['data'])}` });
  if (type === 'resource_link')
    return h('p', null, ['Link: ', h('code', null, String(block['uri'])), ` ${String(block['name'] ?? '')}`]);
  if (type === 'resource') return h(ResourceContents, { contents: [block['resource'] as Json] });
  return h('pre', null, JSON.stringify(block, null, 2));
}

export function ResourceContents({ contents }: { contents: Json[] }): ComponentChild {
  return h(
    'div',
    null,
    contents.map((item) => {
      const mime = String(item['mimeType'] ?? '');
      const body =
        typeof item['text'] === 'string'
          ? h(TextContent, { text: item['text'], markdown: mime === 'text/markdown' })
          : mime.startsWith('image/')
            ? h('img', { alt: String(item['uri']), src: `data:${mime};base64,${String(item['blob'])}` })
            : mime.startsWith('audio/')
              ? h('audio', { controls: true, src: `data:${mime};base64,${String(item['blob'])}` })
              : h(
                  'p',
                  null,
                  `${mime || 'binary'} content, ${String(item['blob'] ?? '').length} base64 characters`,
                );
      return h('div', { class: 'resource' }, [h('code', null, String(item['uri'])), body]);
    }),
  );
}

/** Text as text, or as sanitised markdown when the user asks (or the server labels it text/markdown). */
function TextContent(props: { text: string; markdown: boolean }): ComponentChild {
  const [markdown, setMarkdown] = useState(props.markdown);
  return h('div', { class: 'text-content' }, [
    h(
      'button',
      { class: 'small', 'aria-pressed': markdown, onClick: () => setMarkdown(!markdown) },
      'Render as markdown',
    ),
    markdown ? h(Markdown, { text: props.text }) : h('pre', { class: 'text' }, props.text),
  ]);
}
