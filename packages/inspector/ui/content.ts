/**
 * Server content, by type: text is text, media are `data:` URLs, and `text/html` is rendered only in a sandboxed
 * frame of the sandbox origin with no script (never as HTML in this page).
 */
import { h, type ComponentChild } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, type Json } from './api.js';
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
      const html = mime.split(';')[0]!.trim().toLowerCase() === 'text/html' ? htmlOf(item) : undefined;
      const body =
        html !== undefined
          ? h(HtmlContent, { html, key: html })
          : typeof item['text'] === 'string'
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

function htmlOf(item: Json): string | undefined {
  if (typeof item['text'] === 'string') return item['text'];
  if (typeof item['blob'] !== 'string') return undefined;
  try {
    const bytes = Uint8Array.from(atob(item['blob']), (c) => c.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * A `text/html` resource: rendered in a frame of the sandbox origin (another port), whose document runs no script
 * (CSP `sandbox` and `default-src 'none'` from the backend, `sandbox=""` on the frame: an opaque origin, no forms,
 * no popups, no navigation of this page), or shown as source.
 */
function HtmlContent({ html }: { html: string }): ComponentChild {
  const [source, setSource] = useState(false);
  const [url, setUrl] = useState<string | undefined>();
  const [error, setError] = useState('');
  useEffect(() => {
    void api('html-preview', { html }).then(
      (answer) => setUrl(String(answer['url'])),
      (failure: Error) => setError(failure.message),
    );
  }, [html]);
  return h('div', { class: 'html-content' }, [
    h('button', { class: 'small', 'aria-pressed': source, onClick: () => setSource(!source) }, 'Show source'),
    source
      ? h('pre', { class: 'text', 'data-testid': 'html-source' }, html)
      : error !== ''
        ? h('p', { class: 'error', role: 'alert' }, error)
        : url === undefined
          ? h('p', null, 'Loading the sandboxed preview…')
          : h('iframe', {
              class: 'html-frame',
              src: url,
              sandbox: '',
              referrerpolicy: 'no-referrer',
              title: 'HTML resource (sandboxed: no scripts)',
            }),
  ]);
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
