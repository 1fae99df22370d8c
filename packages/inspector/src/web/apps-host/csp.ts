/**
 * What a View may do, from its resource's `_meta.ui`: the Content Security Policy (never looser than the spec's
 * default, only declared origins added), the Permission Policy `allow` attribute, and the tool links.
 *
 * Spec (apps.mdx, "Host Behavior" and "Sandbox proxy"): "Host MUST construct CSP headers based on declared domains";
 * "If `ui.csp` is omitted, Host MUST use: default-src 'none'; script-src 'self' 'unsafe-inline'; …";
 * "Host MAY further restrict but MUST NOT allow undeclared domains"; "Block dangerous features (`object-src 'none'`)".
 */
import {
  DEFAULT_VISIBILITY,
  LEGACY_RESOURCE_URI_KEY,
  PERMISSION_FEATURES,
  type Visibility,
} from './protocol.js';

type Json = { [key: string]: unknown };

export interface CspDomains {
  connectDomains: string[];
  resourceDomains: string[];
  frameDomains: string[];
  baseUriDomains: string[];
}

export interface ViewPolicy {
  /** The origins that were kept, by field (what the host grants: `hostCapabilities.sandbox.csp`). */
  readonly csp: CspDomains;
  /** The permissions that were kept (`hostCapabilities.sandbox.permissions`). */
  readonly permissions: { [name: string]: Json };
  /** The `Content-Security-Policy` header value the View's document is served with. */
  readonly header: string;
  /** The inner iframe's `allow` attribute. */
  readonly allow: string;
  /** Declared entries the host refused (and why), logged to the timeline for review. */
  readonly refused: string[];
}

const CSP_FIELDS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;

/**
 * An origin the host accepts in a CSP source list: `http(s)://` or `ws(s)://`, a DNS name (optionally with a
 * leading `*.` wildcard label, which the spec allows: "Wildcard subdomains supported: `https://*.example.com`"),
 * an IPv4 address or `localhost`, an optional port, nothing else. No paths, no quotes, no `;`, no whitespace:
 * nothing that could end the directive and add another (CSP injection).
 */
const ORIGIN =
  /^(https?|wss?):\/\/(\*\.)?([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(:\d{1,5})?\/?$/i;

export function originProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return `${JSON.stringify(value)} is not a string`;
  if (!ORIGIN.test(value)) return `${JSON.stringify(value)} is not a scheme://host[:port] origin`;
  const port = /:(\d+)\/?$/.exec(value.replace(/^[a-z]+:\/\//i, ''));
  if (port && Number(port[1]) > 65_535) return `${JSON.stringify(value)} has no valid port`;
  if (value.startsWith('*') || /:\/\/\*\.[^.]+\/?$/.test(value))
    return `${JSON.stringify(value)} is a wildcard over a top-level domain`;
  return undefined;
}

/** `_meta.ui` of a resource: the content item's wins over the list entry's, field by field. */
export function resourceUiMeta(listEntry: Json | undefined, content: Json | undefined): Json {
  const meta = (item: Json | undefined): Json => {
    const ui = (item?.['_meta'] as Json | undefined)?.['ui'];
    return typeof ui === 'object' && ui !== null && !Array.isArray(ui) ? (ui as Json) : {};
  };
  return { ...meta(listEntry), ...meta(content) };
}

export function viewPolicy(ui: Json): ViewPolicy {
  const refused: string[] = [];
  const declared = (typeof ui['csp'] === 'object' && ui['csp'] !== null ? ui['csp'] : {}) as Json;
  const csp: CspDomains = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] };
  for (const field of CSP_FIELDS) {
    const list = declared[field];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      refused.push(`csp.${field} is not an array`);
      continue;
    }
    for (const entry of list) {
      const problem = originProblem(entry);
      if (problem === undefined) csp[field].push(String(entry).replace(/\/$/, ''));
      else refused.push(`csp.${field}: ${problem}`);
    }
  }
  const permissions: { [name: string]: Json } = {};
  const features: string[] = [];
  const asked = (
    typeof ui['permissions'] === 'object' && ui['permissions'] !== null ? ui['permissions'] : {}
  ) as Json;
  for (const [name, value] of Object.entries(asked)) {
    const feature = PERMISSION_FEATURES[name as keyof typeof PERMISSION_FEATURES];
    if (feature === undefined || typeof value !== 'object' || value === null) {
      refused.push(`permissions.${name} is not a known permission`);
      continue;
    }
    permissions[name] = {};
    features.push(feature);
  }
  return { csp, permissions, header: cspHeader(csp), allow: features.join('; '), refused };
}

/** The header: the spec's restrictive default, plus exactly the declared origins, each where it belongs. */
export function cspHeader(csp: CspDomains): string {
  const with_ = (base: string, extra: string[]) => [base, ...extra].filter((part) => part !== '').join(' ');
  const resources = csp.resourceDomains;
  const directives = [
    "default-src 'none'",
    with_("script-src 'self' 'unsafe-inline'", resources),
    with_("style-src 'self' 'unsafe-inline'", resources),
    with_("img-src 'self' data:", resources),
    with_("media-src 'self' data:", resources),
    ...(resources.length > 0 ? [with_('font-src', resources)] : []),
    csp.connectDomains.length > 0 ? with_('connect-src', csp.connectDomains) : "connect-src 'none'",
    csp.frameDomains.length > 0 ? with_('frame-src', csp.frameDomains) : "frame-src 'none'",
    "object-src 'none'",
    csp.baseUriDomains.length > 0 ? with_('base-uri', csp.baseUriDomains) : "base-uri 'self'",
  ];
  return directives.join('; ');
}

/** The tool's View, from `_meta.ui.resourceUri` or the deprecated flat key (hosts read both). */
export function toolResourceUri(tool: Json | undefined): string | undefined {
  const meta = tool?.['_meta'] as Json | undefined;
  const ui = meta?.['ui'] as Json | undefined;
  const uri = ui?.['resourceUri'] ?? meta?.[LEGACY_RESOURCE_URI_KEY];
  return typeof uri === 'string' ? uri : undefined;
}

/** Who may call the tool: `_meta.ui.visibility`, default `["model", "app"]`. */
export function toolVisibility(tool: Json | undefined): readonly Visibility[] {
  const ui = (tool?.['_meta'] as Json | undefined)?.['ui'] as Json | undefined;
  const visibility = ui?.['visibility'];
  return Array.isArray(visibility)
    ? (visibility.filter((v) => v === 'model' || v === 'app') as Visibility[])
    : DEFAULT_VISIBILITY;
}
