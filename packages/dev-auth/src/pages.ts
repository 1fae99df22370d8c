/**
 * The development authorization server's two HTML pages: a consent form and an error page. Every value is
 * escaped; the pages load nothing and may only post back to the server.
 */

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

const STYLE =
  'body{font:16px system-ui,sans-serif;max-width:36em;margin:3em auto;padding:0 1em}code{word-break:break-all}';

export function consentPage(view: {
  action: string;
  transaction: string;
  clientName: string;
  clientId: string;
  redirectHost: string;
  scopes: readonly string[];
  resource: string | undefined;
}): string {
  const scopes =
    view.scopes.length === 0
      ? '<p>No particular scopes.</p>'
      : `<ul>${view.scopes.map((s) => `<li><code>${escapeHtml(s)}</code></li>`).join('')}</ul>`;
  return `<!doctype html><html lang="en"><meta charset="utf-8"><title>Authorize ${escapeHtml(view.clientName)}</title><style>${STYLE}</style>
<h1>Authorize ${escapeHtml(view.clientName)}?</h1>
<p>Client <code>${escapeHtml(view.clientId)}</code> will receive the answer at <strong>${escapeHtml(view.redirectHost)}</strong>.</p>
${view.resource ? `<p>For the resource <code>${escapeHtml(view.resource)}</code>.</p>` : ''}
<p>Requested scopes:</p>${scopes}
<form method="post" action="${escapeHtml(view.action)}">
<input type="hidden" name="transaction" value="${escapeHtml(view.transaction)}">
<button name="decision" value="approve">Approve</button> <button name="decision" value="deny">Deny</button>
</form></html>`;
}

export function errorPage(title: string, message: string): string {
  return `<!doctype html><html lang="en"><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style>
<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></html>`;
}
