/**
 * The `--apps` rules: each one a behaviour of an MCP Apps server, traced to a sentence of the Apps specification
 * (SEP-1865, stable 2026-01-26). The sentences are vendored in `catalog/apps/apps-2026-01-26.md` with their
 * source; `catalog.test.ts` checks each sentence is there, word for word.
 */
export const APPS_SPEC_URL =
  'https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx';

export type AppsLevel = 'MUST' | 'SHOULD' | 'advisory';

export interface AppsRule {
  readonly id: string;
  readonly level: AppsLevel;
  /** What passes. */
  readonly title: string;
  readonly section: string;
  /** The spec sentence, verbatim. */
  readonly sentence: string;
}

export const APPS_RULES = [
  {
    id: 'apps.ui-scheme',
    level: 'MUST',
    title: 'UI resources (tool links and listed app resources) use the ui:// scheme',
    section: 'UI Resource Format / Content Requirements',
    sentence: 'URI MUST start with `ui://` scheme',
  },
  {
    id: 'apps.link-resolves',
    level: 'MUST',
    title: "Every tool's _meta.ui.resourceUri names a resource that resources/read returns",
    section: 'Resource Discovery / Behavior',
    sentence: 'Resource MUST exist on the server',
  },
  {
    id: 'apps.mime-type',
    level: 'MUST',
    title: 'The content of an app resource has the MIME type text/html;profile=mcp-app',
    section: 'UI Resource Format / Content Requirements',
    sentence: '`mimeType` MUST be `text/html;profile=mcp-app` (other types reserved for future extensions)',
  },
  {
    id: 'apps.listed-mime-type',
    level: 'SHOULD',
    title: 'A listed ui:// resource declares the MIME type text/html;profile=mcp-app',
    section: 'UI Resource Format',
    sentence: 'SHOULD be `text/html;profile=mcp-app` for HTML-based UIs in the initial MVP.',
  },
  {
    id: 'apps.content',
    level: 'MUST',
    title: 'An app resource carries its HTML as text, or as base64 in blob',
    section: 'UI Resource Format / Content Requirements',
    sentence: 'Content MUST be provided via either `text` (string) or `blob` (base64-encoded)',
  },
  {
    id: 'apps.html5',
    level: 'MUST',
    title: 'An app resource is an HTML5 document (<!DOCTYPE html>, then the document)',
    section: 'UI Resource Format / Content Requirements',
    sentence: 'Content MUST be valid HTML5 document',
  },
  {
    id: 'apps.tool-meta',
    level: 'MUST',
    title: 'A tool\'s _meta.ui is an object: resourceUri a string, visibility an array of "model" / "app"',
    section: 'Resource Discovery',
    sentence: 'visibility?: Array<"model" | "app">;',
  },
  {
    id: 'apps.resource-meta',
    level: 'MUST',
    title:
      "A resource's _meta.ui is well-typed: csp lists of strings, known permissions as objects, domain a string, prefersBorder a boolean",
    section: 'UI Resource Format',
    sentence: 'prefersBorder?: boolean,',
  },
  {
    id: 'apps.csp-origins',
    level: 'MUST',
    title: 'Every CSP domain is an origin (scheme://host[:port]) that cannot break the policy',
    section: 'UI Resource Format',
    sentence: 'Origins for network requests (fetch/XHR/WebSocket)',
  },
  {
    id: 'apps.csp-wildcards',
    level: 'advisory',
    title: 'CSP domains name hosts, not wildcards (hosts may refuse them: they may restrict further)',
    section: 'UI Resource Format / Host Behavior',
    sentence: 'Host MAY further restrict but MUST NOT allow undeclared domains',
  },
  {
    id: 'apps.remote-assets-declared',
    level: 'SHOULD',
    title: 'Scripts and styles the View loads from other origins are declared in csp.resourceDomains',
    section: 'UI Resource Format',
    sentence: 'Servers declare which external origins their UI needs to access.',
  },
  {
    id: 'apps.text-fallback',
    level: 'MUST',
    title: 'A tool with a UI returns a meaningful content array (a non-empty text block)',
    section: 'Client<>Server Capability Negotiation / Graceful Degradation',
    sentence: 'Tools MUST return meaningful content array even when UI is available',
  },
  {
    id: 'apps.negotiation',
    level: 'SHOULD',
    title:
      'UI metadata goes only to clients that advertised the UI extension (initialize in legacy revisions, per request in 2026-07-28)',
    section: 'Client<>Server Capability Negotiation / Server Behavior',
    sentence: 'Servers SHOULD check client capabilities before registering UI-enabled tools.',
  },
  {
    id: 'apps.deprecated-key',
    level: 'advisory',
    title: 'Tools link their View with _meta.ui.resourceUri, not only the deprecated _meta["ui/resourceUri"]',
    section: 'Resource Discovery',
    sentence: 'The flat `_meta["ui/resourceUri"]` format is deprecated. Use `_meta.ui.resourceUri` instead.',
  },
] as const satisfies readonly AppsRule[];

export type AppsRuleId = (typeof APPS_RULES)[number]['id'];

export const APPS_RULE_BY_ID = new Map<string, AppsRule>(APPS_RULES.map((rule) => [rule.id, rule]));
