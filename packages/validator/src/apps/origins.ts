/**
 * CSP domains of `_meta.ui.csp`: each must be an origin a host can put in a CSP source list as it is —
 * `http(s)://` or `ws(s)://`, a host name (a leading `*.` label is the spec's wildcard subdomain), an optional
 * port; no path, no quotes, no `;` or whitespace (which would end the directive: CSP injection), no bare `*`.
 */
const ORIGIN =
  /^(https?|wss?):\/\/(\*\.)?[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::(\d{1,5}))?\/?$/i;

export function cspOriginProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return `${JSON.stringify(value)} is not a string`;
  const match = ORIGIN.exec(value);
  if (match === null) return `${JSON.stringify(value)} is not an origin (scheme://host[:port])`;
  if (match[3] !== undefined && Number(match[3]) > 65_535)
    return `${JSON.stringify(value)} has no valid port`;
  return undefined;
}

export function isWildcard(value: string): boolean {
  return value.includes('*');
}
