/**
 * `mcpengine validate --apps`: the MCP Apps rules (rules.ts) run against a server. One session advertises the
 * UI extension (`capabilities.extensions["io.modelcontextprotocol/ui"]`) — legacy at `initialize`, or per request
 * in 2026-07-28 — and lists the tools and resources, reads every app resource, and calls the app tools it may
 * call (annotated `readOnlyHint: true`, or named with `--call` / `--call-all`). Then, in every era the server
 * speaks, the tools are listed again by a client that did not advertise the extension, to see whether UI metadata
 * leaks to it.
 */
import type { Channel, CallResult } from '@mcpengine/wire';
import { initializeRequest, modernRequest, type SessionAware } from '../session.js';
import type { Target } from '../target.js';
import { declaredAllows, html5Problem, remoteAssetOrigins } from './html.js';
import { cspOriginProblem, isWildcard } from './origins.js';
import { APPS_RULES, APPS_SPEC_URL, type AppsLevel, type AppsRuleId } from './rules.js';

type Json = { [key: string]: unknown };

export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
export const APP_MIME = 'text/html;profile=mcp-app';
const UI_CAPABILITIES: Json = { extensions: { [UI_EXTENSION]: { mimeTypes: [APP_MIME] } } };
const LEGACY_REVISIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];
const MODERN_REVISION = '2026-07-28';
const CSP_FIELDS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'];
const PERMISSIONS = ['camera', 'microphone', 'geolocation', 'clipboardWrite'];

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export interface AppsOutcome {
  readonly status: 'pass' | 'fail';
  /** What was looked at (a tool, a resource, an era) and what was found. */
  readonly detail: string;
}

export type AppsVerdict = 'pass' | 'fail' | 'warn' | 'not-applicable';

export interface AppsRuleReport {
  readonly id: AppsRuleId;
  readonly level: AppsLevel;
  readonly title: string;
  readonly section: string;
  readonly sentence: string;
  readonly link: string;
  readonly verdict: AppsVerdict;
  readonly outcomes: readonly AppsOutcome[];
  /** Why the rule could not be checked, when it could not. */
  readonly notRun?: string;
}

export interface AppsReport {
  readonly target: string;
  readonly eras: readonly string[];
  readonly appTools: readonly string[];
  readonly appResources: readonly string[];
  readonly rules: readonly AppsRuleReport[];
  readonly exitCode: 0 | 1;
}

export interface AppsRunOptions {
  readonly target: Target;
  readonly timeoutMs: number;
  readonly callTools: ReadonlySet<string>;
  readonly callAll: boolean;
}

/** One conversation in one era, with or without the UI extension advertised. */
interface Conversation {
  readonly era: 'legacy' | 'modern';
  readonly revision: string;
  request(method: string, params?: Json): Promise<{ result?: Json; error?: Json; call: CallResult }>;
}

async function legacyConversation(
  target: Target,
  capabilities: Json,
  timeoutMs: number,
): Promise<Conversation | undefined> {
  const channel = await target.open();
  for (const version of LEGACY_REVISIONS) {
    const call = await channel.call(initializeRequest(channel, version, capabilities), { timeoutMs });
    const result = call.response?.['result'];
    if (!isObject(result)) return undefined;
    const revision = result['protocolVersion'];
    if (typeof revision !== 'string' || !LEGACY_REVISIONS.includes(revision)) return undefined;
    (channel as Channel & SessionAware).negotiated?.(revision);
    await channel.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return {
      era: 'legacy',
      revision,
      request: (method, params = {}) =>
        ask(channel, { jsonrpc: '2.0', id: channel.nextId(), method, params }, timeoutMs),
    };
  }
  return undefined;
}

async function modernConversation(
  target: Target,
  capabilities: Json,
  timeoutMs: number,
): Promise<Conversation | undefined> {
  const channel = await target.open();
  const discover = await ask(
    channel,
    modernRequest(channel, MODERN_REVISION, 'server/discover', {}, { capabilities }),
    timeoutMs,
  );
  const versions = discover.result?.['supportedVersions'];
  if (!Array.isArray(versions) || !versions.includes(MODERN_REVISION)) return undefined;
  (channel as Channel & SessionAware).negotiated?.(MODERN_REVISION);
  return {
    era: 'modern',
    revision: MODERN_REVISION,
    request: (method, params = {}) =>
      ask(channel, modernRequest(channel, MODERN_REVISION, method, params, { capabilities }), timeoutMs),
  };
}

async function ask(
  channel: Channel,
  message: Json,
  timeoutMs: number,
): Promise<{ result?: Json; error?: Json; call: CallResult }> {
  const call = await channel.call(message, { timeoutMs });
  const result = call.response?.['result'];
  const error = call.response?.['error'];
  return {
    call,
    ...(isObject(result) ? { result } : {}),
    ...(isObject(error)
      ? { error }
      : call.response === undefined
        ? { error: { message: call.failure ?? 'no response' } }
        : {}),
  };
}

async function listAll(conversation: Conversation, method: string, key: string): Promise<Json[] | string> {
  const items: Json[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const answer = await conversation.request(method, cursor === undefined ? {} : { cursor });
    if (answer.result === undefined) return `${method} failed: ${JSON.stringify(answer.error)}`;
    const found = answer.result[key];
    if (Array.isArray(found)) items.push(...found.filter(isObject));
    cursor = typeof answer.result['nextCursor'] === 'string' ? answer.result['nextCursor'] : undefined;
    if (cursor === undefined) break;
  }
  return items;
}

function toolUi(tool: Json): Json | undefined {
  const meta = tool['_meta'];
  return isObject(meta) && isObject(meta['ui']) ? meta['ui'] : undefined;
}

/** The View a tool links: `_meta.ui.resourceUri`, else the deprecated flat key. */
export function linkedUri(tool: Json): string | undefined {
  const meta = isObject(tool['_meta']) ? tool['_meta'] : {};
  const ui = isObject(meta['ui']) ? meta['ui'] : {};
  const uri = ui['resourceUri'] ?? meta['ui/resourceUri'];
  return typeof uri === 'string' ? uri : undefined;
}

function hasUiMetadata(tool: Json): boolean {
  const meta = isObject(tool['_meta']) ? tool['_meta'] : {};
  return toolUi(tool)?.['resourceUri'] !== undefined || meta['ui/resourceUri'] !== undefined;
}

export async function runAppsValidation(options: AppsRunOptions): Promise<AppsReport> {
  const outcomes = new Map<AppsRuleId, AppsOutcome[]>();
  const notRun = new Map<AppsRuleId, string>();
  const pass = (id: AppsRuleId, detail: string) =>
    outcomes.set(id, [...(outcomes.get(id) ?? []), { status: 'pass', detail }]);
  const fail = (id: AppsRuleId, detail: string) =>
    outcomes.set(id, [...(outcomes.get(id) ?? []), { status: 'fail', detail }]);
  const { target, timeoutMs } = options;
  const eras: string[] = [];
  const appTools: string[] = [];
  const appResources = new Set<string>();
  try {
    const legacy = await legacyConversation(target, UI_CAPABILITIES, timeoutMs).catch(() => undefined);
    const modern = await modernConversation(target, UI_CAPABILITIES, timeoutMs).catch(() => undefined);
    if (legacy) eras.push(`legacy (${legacy.revision})`);
    if (modern) eras.push(`modern (${modern.revision})`);
    const main = legacy ?? modern;
    if (main === undefined)
      throw new Error('the server negotiated no revision (neither initialize nor server/discover)');

    const tools = await listAll(main, 'tools/list', 'tools');
    const resources = await listAll(main, 'resources/list', 'resources');
    const toolList = typeof tools === 'string' ? [] : tools;
    const resourceList = typeof resources === 'string' ? [] : resources;
    if (typeof tools === 'string') notRun.set('apps.tool-meta', tools);

    // Tools: their _meta.ui, the link's scheme, the deprecated key.
    const links = new Map<string, string[]>();
    for (const tool of toolList) {
      const name = String(tool['name']);
      const meta = isObject(tool['_meta']) ? tool['_meta'] : undefined;
      if (meta === undefined || (meta['ui'] === undefined && meta['ui/resourceUri'] === undefined)) continue;
      const ui = meta['ui'];
      const problems: string[] = [];
      if (ui !== undefined) {
        if (!isObject(ui)) problems.push('_meta.ui is not an object');
        else {
          if (ui['resourceUri'] !== undefined && typeof ui['resourceUri'] !== 'string')
            problems.push('_meta.ui.resourceUri is not a string');
          const visibility = ui['visibility'];
          if (
            visibility !== undefined &&
            (!Array.isArray(visibility) || visibility.some((v) => v !== 'model' && v !== 'app'))
          )
            problems.push(
              `_meta.ui.visibility ${JSON.stringify(visibility)} is not an array of "model" / "app"`,
            );
        }
      }
      if (meta['ui/resourceUri'] !== undefined && typeof meta['ui/resourceUri'] !== 'string')
        problems.push('_meta["ui/resourceUri"] is not a string');
      if (problems.length > 0) fail('apps.tool-meta', `tool ${name}: ${problems.join('; ')}`);
      else pass('apps.tool-meta', `tool ${name}`);
      const flat = meta['ui/resourceUri'];
      const nested = isObject(ui) ? ui['resourceUri'] : undefined;
      if (typeof flat === 'string' && nested === undefined)
        fail(
          'apps.deprecated-key',
          `tool ${name} links its View only with the deprecated _meta["ui/resourceUri"]`,
        );
      else if (typeof flat === 'string' && typeof nested === 'string' && flat !== nested)
        fail(
          'apps.deprecated-key',
          `tool ${name}: _meta["ui/resourceUri"] ${flat} differs from _meta.ui.resourceUri ${nested}`,
        );
      else if (nested !== undefined) pass('apps.deprecated-key', `tool ${name}`);
      for (const uri of [nested, flat]) {
        if (typeof uri !== 'string') continue;
        if (uri.startsWith('ui://')) pass('apps.ui-scheme', `tool ${name} links ${uri}`);
        else fail('apps.ui-scheme', `tool ${name} links ${JSON.stringify(uri)}, which is not a ui:// URI`);
      }
      const uri = linkedUri(tool);
      if (uri !== undefined) {
        appTools.push(name);
        links.set(uri, [...(links.get(uri) ?? []), name]);
      }
    }

    // Listed resources that are apps (ui:// or the app MIME type).
    const listedByUri = new Map<string, Json>();
    for (const resource of resourceList) {
      const uri = String(resource['uri']);
      const isApp = uri.startsWith('ui://') || resource['mimeType'] === APP_MIME;
      if (!isApp) continue;
      listedByUri.set(uri, resource);
      if (uri.startsWith('ui://')) pass('apps.ui-scheme', `resource ${uri}`);
      else fail('apps.ui-scheme', `resource ${uri} has the app MIME type but is not a ui:// URI`);
      if (resource['mimeType'] === APP_MIME) pass('apps.listed-mime-type', `resource ${uri}`);
      else
        fail(
          'apps.listed-mime-type',
          `resource ${uri} is listed with mimeType ${JSON.stringify(resource['mimeType'])}`,
        );
      checkResourceMeta(resource, `resource ${uri} (list entry)`, pass, fail);
    }

    // Read every app resource: linked ones (they must exist) and listed ones.
    const toRead = new Set([...links.keys(), ...listedByUri.keys()].filter((uri) => uri.startsWith('ui://')));
    for (const uri of toRead) {
      appResources.add(uri);
      const answer = await main.request('resources/read', { uri });
      const contents = answer.result?.['contents'];
      const linkedBy = links.get(uri);
      const item = Array.isArray(contents)
        ? ((contents.find((c) => isObject(c) && c['uri'] === uri) ?? contents[0]) as Json | undefined)
        : undefined;
      if (linkedBy !== undefined) {
        if (item !== undefined && isObject(item))
          pass('apps.link-resolves', `${uri} (linked by ${linkedBy.join(', ')})`);
        else
          fail(
            'apps.link-resolves',
            `${uri}, linked by ${linkedBy.join(', ')}, cannot be read: ${answer.error !== undefined ? JSON.stringify(answer.error) : 'no contents'}`,
          );
      }
      if (item === undefined || !isObject(item)) continue;
      if (item['mimeType'] === APP_MIME) pass('apps.mime-type', uri);
      else fail('apps.mime-type', `${uri} is read with mimeType ${JSON.stringify(item['mimeType'])}`);
      let html: string | undefined;
      if (typeof item['text'] === 'string') html = item['text'];
      else if (
        typeof item['blob'] === 'string' &&
        /^[A-Za-z0-9+/]*={0,2}$/.test(item['blob'].replace(/\s/g, ''))
      )
        html = Buffer.from(item['blob'], 'base64').toString('utf8');
      if (html === undefined) {
        fail('apps.content', `${uri} has neither a text string nor a base64 blob`);
        continue;
      }
      pass('apps.content', uri);
      const problem = html5Problem(html);
      if (problem === undefined) pass('apps.html5', uri);
      else fail('apps.html5', `${uri}: ${problem}`);
      checkResourceMeta(item, `${uri} (read contents)`, pass, fail);
      // The content item's _meta.ui wins over the list entry's.
      const listedUi = isObject(listedByUri.get(uri)?.['_meta'])
        ? (listedByUri.get(uri)!['_meta'] as Json)['ui']
        : undefined;
      const readUi = isObject(item['_meta']) ? (item['_meta'] as Json)['ui'] : undefined;
      const ui = { ...(isObject(listedUi) ? listedUi : {}), ...(isObject(readUi) ? readUi : {}) };
      const csp = isObject(ui['csp']) ? ui['csp'] : {};
      const resourceDomains = Array.isArray(csp['resourceDomains'])
        ? csp['resourceDomains'].filter((v): v is string => typeof v === 'string')
        : [];
      const remote = remoteAssetOrigins(html);
      const undeclared = remote.filter((asset) => !declaredAllows(resourceDomains, asset.origin));
      if (undeclared.length > 0)
        fail(
          'apps.remote-assets-declared',
          `${uri} loads ${undeclared.map((a) => `a ${a.what} from ${a.origin}`).join(', ')}, not in csp.resourceDomains ${JSON.stringify(resourceDomains)}: the host's CSP blocks it`,
        );
      else
        pass(
          'apps.remote-assets-declared',
          `${uri}${remote.length === 0 ? ' (no remote scripts or styles)' : ''}`,
        );
    }

    // Text fallback: call the app tools the validator may call.
    for (const tool of toolList) {
      const uri = linkedUri(tool);
      if (uri === undefined) continue;
      const name = String(tool['name']);
      const annotations = isObject(tool['annotations']) ? tool['annotations'] : {};
      const callable = options.callAll || options.callTools.has(name) || annotations['readOnlyHint'] === true;
      const schema = isObject(tool['inputSchema']) ? tool['inputSchema'] : {};
      const required = Array.isArray(schema['required']) ? schema['required'] : [];
      if (!callable) {
        notRun.set('apps.text-fallback', `tool ${name} may have effects (use --call ${name} or --call-all)`);
        continue;
      }
      if (required.length > 0) {
        notRun.set('apps.text-fallback', `tool ${name} needs arguments (${required.join(', ')})`);
        continue;
      }
      const answer = await main.request('tools/call', { name, arguments: {} });
      const content = answer.result?.['content'];
      const texts = Array.isArray(content)
        ? content.filter(
            (b) =>
              isObject(b) && b['type'] === 'text' && typeof b['text'] === 'string' && b['text'].trim() !== '',
          )
        : [];
      if (answer.result === undefined)
        notRun.set(
          'apps.text-fallback',
          `tools/call ${name} was answered with an error: ${JSON.stringify(answer.error)}`,
        );
      else if (texts.length > 0)
        pass(
          'apps.text-fallback',
          `tool ${name}: ${JSON.stringify((texts[0] as Json)['text']).slice(0, 80)}`,
        );
      else
        fail(
          'apps.text-fallback',
          `tool ${name} returned ${JSON.stringify(content ?? null).slice(0, 200)}: no text for a text-only host`,
        );
    }

    // Negotiation: clients that did not advertise the UI extension, in every era the server speaks.
    if (appTools.length > 0) {
      const plain = [
        legacy ? await legacyConversation(target, {}, timeoutMs).catch(() => undefined) : undefined,
        modern ? await modernConversation(target, {}, timeoutMs).catch(() => undefined) : undefined,
      ];
      for (const conversation of plain) {
        if (conversation === undefined) continue;
        const listed = await listAll(conversation, 'tools/list', 'tools');
        if (typeof listed === 'string') continue;
        const leaking = listed.filter(hasUiMetadata).map((tool) => String(tool['name']));
        const era = `${conversation.era} (${conversation.revision})`;
        if (leaking.length > 0)
          fail(
            'apps.negotiation',
            `${era}: a client without the ${UI_EXTENSION} extension still gets UI metadata on ${leaking.join(', ')}`,
          );
        else pass('apps.negotiation', `${era}: no UI metadata for a client without the extension`);
      }
    }
  } finally {
    await target.dispose();
  }

  const rules: AppsRuleReport[] = APPS_RULES.map((rule) => {
    const found = outcomes.get(rule.id) ?? [];
    const failed = found.some((o) => o.status === 'fail');
    const verdict: AppsVerdict = failed
      ? rule.level === 'MUST'
        ? 'fail'
        : 'warn'
      : found.length > 0
        ? 'pass'
        : 'not-applicable';
    const reason = notRun.get(rule.id);
    return {
      id: rule.id,
      level: rule.level,
      title: rule.title,
      section: rule.section,
      sentence: rule.sentence,
      link: APPS_SPEC_URL,
      verdict,
      outcomes: found,
      ...(reason === undefined ? {} : { notRun: reason }),
    };
  });
  return {
    target: target.label,
    eras,
    appTools,
    appResources: [...appResources],
    rules,
    exitCode: rules.some((rule) => rule.verdict === 'fail') ? 1 : 0,
  };
}

function checkResourceMeta(
  item: Json,
  where: string,
  pass: (id: AppsRuleId, detail: string) => void,
  fail: (id: AppsRuleId, detail: string) => void,
): void {
  const meta = item['_meta'];
  if (meta === undefined) return;
  if (!isObject(meta) || (meta['ui'] !== undefined && !isObject(meta['ui']))) {
    fail('apps.resource-meta', `${where}: _meta.ui is not an object`);
    return;
  }
  const ui = meta['ui'];
  if (ui === undefined) return;
  const problems: string[] = [];
  const csp = ui['csp'];
  if (csp !== undefined && !isObject(csp)) problems.push('csp is not an object');
  if (isObject(csp)) {
    for (const field of CSP_FIELDS) {
      const list = csp[field];
      if (list === undefined) continue;
      if (!Array.isArray(list) || list.some((v) => typeof v !== 'string')) {
        problems.push(`csp.${field} is not an array of strings`);
        continue;
      }
      for (const entry of list as string[]) {
        const problem = cspOriginProblem(entry);
        if (problem !== undefined) fail('apps.csp-origins', `${where}: csp.${field}: ${problem}`);
        else {
          pass('apps.csp-origins', `${where}: csp.${field} ${entry}`);
          if (isWildcard(entry)) fail('apps.csp-wildcards', `${where}: csp.${field} ${entry} is a wildcard`);
          else pass('apps.csp-wildcards', `${where}: csp.${field} ${entry}`);
        }
      }
    }
  }
  const permissions = ui['permissions'];
  if (permissions !== undefined) {
    if (!isObject(permissions)) problems.push('permissions is not an object');
    else
      for (const [name, value] of Object.entries(permissions)) {
        if (!PERMISSIONS.includes(name)) problems.push(`permissions.${name} is not a permission of the spec`);
        else if (!isObject(value)) problems.push(`permissions.${name} is not an object`);
      }
  }
  if (ui['domain'] !== undefined && typeof ui['domain'] !== 'string') problems.push('domain is not a string');
  if (ui['prefersBorder'] !== undefined && typeof ui['prefersBorder'] !== 'boolean')
    problems.push('prefersBorder is not a boolean');
  if (problems.length > 0) fail('apps.resource-meta', `${where}: ${problems.join('; ')}`);
  else pass('apps.resource-meta', where);
}

/** The terminal report: the verdict, then every rule with its level, sentence and findings. */
export function renderAppsTerminal(report: AppsReport, options: { verbose: boolean }): string {
  const lines: string[] = [];
  const failed = report.rules.filter((rule) => rule.verdict === 'fail');
  const warned = report.rules.filter((rule) => rule.verdict === 'warn');
  lines.push(
    `${report.exitCode === 0 ? 'PASS' : 'FAIL'}: MCP Apps rules — ${failed.length} MUST failed, ${warned.length} warned` +
      ` (${report.appTools.length} app tool(s), ${report.appResources.length} app resource(s); ${report.eras.join(', ') || 'no era'})`,
  );
  if (report.appTools.length === 0 && report.appResources.length === 0)
    lines.push('No MCP Apps found: no tool links a ui:// resource and none is listed.');
  lines.push('');
  const mark: Record<AppsVerdict, string> = {
    pass: 'pass',
    fail: 'FAIL',
    warn: 'warn',
    'not-applicable': '  - ',
  };
  for (const rule of report.rules) {
    lines.push(`${mark[rule.verdict].padEnd(4)} ${rule.id} (${rule.level}) — ${rule.title}`);
    if (rule.verdict === 'fail' || rule.verdict === 'warn' || options.verbose) {
      lines.push(`       “${rule.sentence}” (${rule.section})`);
      for (const outcome of rule.outcomes)
        if (outcome.status === 'fail' || options.verbose)
          lines.push(`       ${outcome.status === 'fail' ? '✗' : '✓'} ${outcome.detail}`);
    }
    if (rule.notRun !== undefined) lines.push(`       not run: ${rule.notRun}`);
  }
  lines.push('', `Spec: ${APPS_SPEC_URL}`);
  return `${lines.join('\n')}\n`;
}
