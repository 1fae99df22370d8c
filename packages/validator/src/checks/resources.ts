/**
 * Resources: lists, templates, reads, the not-found error of each revision, subscriptions (legacy).
 */
import { factsOf } from '../revisions.js';
import { brief, callEvidence } from '../evidence.js';
import { isObject, resultOf, type JsonObject } from '@mcpengine/wire';
import { CONTENT_BASE64, failProblems, resourceContentProblems } from './content.js';
import { errorCode, isAnyError, isError, isResult } from './expect.js';
import {
  CACHING_HINTS,
  compareViewpoints,
  judgeCaching,
  judgeListing,
  listAll,
  PAGINATION_CURSORS,
} from './listing.js';
import type { ProbeContext } from './context.js';
import type { Probe } from './probe.js';
import { defineCheck } from './registry.js';

export const RESOURCES_LIST = defineCheck(
  'resources.list',
  'resources',
  'resources/list answers with the resources (every page readable)',
);
export const RESOURCES_URI = defineCheck(
  'resources.uri',
  'resources',
  'Resource URIs are absolute URIs as RFC 3986 defines them',
);
export const RESOURCES_TEMPLATES = defineCheck(
  'resources.templates-list',
  'resources',
  'resources/templates/list answers with the templates (every page readable)',
);
export const RESOURCES_READ = defineCheck(
  'resources.read',
  'resources',
  'Reading a listed resource returns its contents (text or base64 blob)',
);
export const RESOURCES_NOT_FOUND = defineCheck(
  'resources.not-found',
  'resources',
  'Reading a resource that does not exist is an error with the revision’s code: -32002 up to 2025-11-25, -32602 in 2026-07-28',
);
export const RESOURCES_UNKNOWN_REJECTED = defineCheck(
  'resources.unknown-uri-rejected',
  'resources',
  'A URI that names no resource is rejected with a JSON-RPC error (the server validates resource URIs)',
);
export const RESOURCES_NOT_FOUND_EMPTY = defineCheck(
  'resources.not-found-not-empty',
  'resources',
  'A resource that does not exist is never answered with an empty contents array',
);
export const RESOURCES_SUBSCRIBE = defineCheck(
  'resources.subscribe',
  'resources',
  'resources/subscribe and resources/unsubscribe answer with empty results when the server advertises subscribe',
);
export const RESOURCES_SAME_EVERYWHERE = defineCheck(
  'resources.list-per-connection',
  'resources',
  'resources/list returns the same set on another connection (no per-connection state)',
);

const URI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/;
const MAX_READS = 10;
const MAX_TEMPLATE_READS = 5;
/** A simple (`{name}`) or reserved (`{+name}`) RFC 6570 expression; other operators are not expanded. */
const EXPRESSION = /\{(\+?)([A-Za-z0-9_]+)\}/g;

/** The variables of a template the validator can expand, or undefined when it uses other expressions. */
function templateVariables(template: string): string[] | undefined {
  const names = [...template.matchAll(EXPRESSION)].map((match) => match[2]!);
  const rest = template.replace(EXPRESSION, '');
  return names.length === 0 || /[{}]/.test(rest) ? undefined : names;
}

function expand(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(EXPRESSION, (_, reserved: string, name: string) =>
    reserved === '+' ? encodeURI(values[name]!) : encodeURIComponent(values[name]!),
  );
}

/** The values a listed URI gives the template's variables, when it matches the template. */
function valuesFromListed(template: string, uri: string): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = template
    .split(EXPRESSION)
    .map((part, index) => {
      // split() with two groups yields: literal, operator, name, literal, operator, name…
      if (index % 3 === 0) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      if (index % 3 === 1) return '';
      names.push(part);
      return '([^/?#]+)';
    })
    .join('');
  const match = new RegExp(`^${pattern}$`).exec(uri);
  if (match === null) return undefined;
  return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]));
}

/**
 * One URI per resource template (up to MAX_TEMPLATE_READS), its variables filled with the server's own
 * completion values (completion/complete on the template), else with values a listed resource gives them.
 */
async function templateExpansions(
  ctx: ProbeContext,
  templates: readonly JsonObject[],
  resources: readonly JsonObject[],
): Promise<{ uri: string; how: string }[]> {
  const expansions: { uri: string; how: string }[] = [];
  for (const template of templates) {
    if (expansions.length >= MAX_TEMPLATE_READS) break;
    const uriTemplate = template['uriTemplate'];
    if (typeof uriTemplate !== 'string') continue;
    const names = templateVariables(uriTemplate);
    if (names === undefined) continue;
    const completed: Record<string, string> = {};
    if (ctx.has('completions')) {
      for (const name of names) {
        const call = await ctx.rpc('completion/complete', {
          ref: { type: 'ref/resource', uri: uriTemplate },
          argument: { name, value: '' },
        });
        const completion = resultOf(call)?.['completion'];
        const values = isObject(completion) ? completion['values'] : undefined;
        const value = Array.isArray(values)
          ? values.find((v) => typeof v === 'string' && v !== '')
          : undefined;
        if (typeof value === 'string') completed[name] = value;
      }
    }
    if (names.every((name) => completed[name] !== undefined)) {
      expansions.push({
        uri: expand(uriTemplate, completed),
        how: `template ${uriTemplate}, completion values`,
      });
      continue;
    }
    for (const resource of resources) {
      const uri = resource['uri'];
      const values = typeof uri === 'string' ? valuesFromListed(uriTemplate, uri) : undefined;
      if (values === undefined) continue;
      // Completion values (when some came) take precedence; a URI the listed reads covered is not read twice.
      const filled = expand(uriTemplate, { ...values, ...completed });
      const read = resources.slice(0, MAX_READS).some((r) => r['uri'] === filled);
      if (!read) expansions.push({ uri: filled, how: `template ${uriTemplate}, values of ${uri}` });
      break;
    }
  }
  return expansions;
}

export const resourcesProbe: Probe = {
  name: 'resources',
  eras: ['legacy', 'modern'],
  checks: [
    RESOURCES_LIST,
    RESOURCES_URI,
    RESOURCES_TEMPLATES,
    RESOURCES_READ,
    RESOURCES_NOT_FOUND,
    RESOURCES_UNKNOWN_REJECTED,
    RESOURCES_NOT_FOUND_EMPTY,
    RESOURCES_SUBSCRIBE,
    RESOURCES_SAME_EVERYWHERE,
    CONTENT_BASE64,
    PAGINATION_CURSORS,
    CACHING_HINTS,
  ],
  async run(ctx) {
    if (!ctx.has('resources')) {
      for (const check of this.checks)
        ctx.notApplicable(check, 'the server does not advertise the resources capability');
      return;
    }
    const listing = await listAll(ctx, 'resources/list', 'resources');
    judgeListing(ctx, 'resources/list', listing, 'resources');
    const first = listing.pages[0];
    const listEvidence = first ? [callEvidence(first, 'resources/list')] : [];
    if (listing.failure !== undefined) {
      ctx.fail(
        RESOURCES_LIST,
        `resources/list failed: ${listing.failure}`,
        listing.pages.slice(-1).map((c) => callEvidence(c, 'resources/list')),
      );
    } else {
      ctx.pass(RESOURCES_LIST, `${listing.items.length} resource(s)`, listEvidence);
    }
    const resources = listing.items;
    ctx.inventory.resources = resources;

    const templates = await listAll(ctx, 'resources/templates/list', 'resourceTemplates');
    judgeListing(ctx, 'resources/templates/list', templates, 'resourceTemplates');
    const templateEvidence = templates.pages[0]
      ? [callEvidence(templates.pages[0], 'resources/templates/list')]
      : [];
    if (templates.failure !== undefined)
      ctx.fail(
        RESOURCES_TEMPLATES,
        `resources/templates/list failed: ${templates.failure}`,
        templateEvidence,
      );
    else ctx.pass(RESOURCES_TEMPLATES, `${templates.items.length} template(s)`, templateEvidence);
    ctx.inventory.templates = templates.items;

    const badUris = resources.map((r) => r['uri']).filter((uri) => typeof uri !== 'string' || !URI.test(uri));
    if (!factsOf(ctx.revision).resourceUriRule)
      ctx.notApplicable(RESOURCES_URI, `${ctx.revision} sets no rule for URI syntax`);
    else if (resources.length === 0) ctx.notRun(RESOURCES_URI, 'the server lists no resources');
    else
      ctx.expect(
        RESOURCES_URI,
        badUris.length === 0,
        `${resources.length} URI(s) well formed`,
        `not absolute URIs: ${badUris.map((u) => brief(u, 80)).join(', ')}`,
        listEvidence,
      );

    let binary = false;
    for (const resource of resources.slice(0, MAX_READS)) {
      const uri = resource['uri'];
      if (typeof uri !== 'string') continue;
      const call = await ctx.rpc('resources/read', { uri });
      judgeCaching(ctx, call, 'resources/read', `resources/read ${uri}`);
      const evidence = [callEvidence(call, `resources/read ${uri}`)];
      const result = resultOf(call);
      if (errorCode(call) === -32021) {
        ctx.pass(
          RESOURCES_READ,
          `${uri}: needs a client capability the validator did not declare (-32021)`,
          evidence,
        );
        continue;
      }
      if (result === undefined) {
        ctx.fail(RESOURCES_READ, `${uri}: ${isResult(call).detail}`, evidence);
        continue;
      }
      if (result['resultType'] === 'input_required') {
        ctx.pass(RESOURCES_READ, `${uri}: input required (multi round-trip)`, evidence);
        continue;
      }
      const contents = Array.isArray(result['contents']) ? result['contents'] : undefined;
      if (contents === undefined || contents.length === 0) {
        ctx.fail(RESOURCES_READ, `${uri}: no contents`, evidence);
        continue;
      }
      const problems = resourceContentProblems(contents, `${uri} contents`);
      if (contents.some((c) => isObject(c) && 'blob' in c)) binary = true;
      failProblems(ctx, CONTENT_BASE64, problems, evidence);
      ctx.pass(RESOURCES_READ, `${uri}: ${contents.length} content item(s)`, evidence);
    }
    // Resources behind templates: read one expansion of each, so a malformed result there is caught too (the
    // schema observer judges every response). Only results are judged: an expansion may name nothing.
    for (const { uri, how } of await templateExpansions(ctx, templates.items, resources)) {
      const call = await ctx.rpc('resources/read', { uri });
      const evidence = [callEvidence(call, `resources/read ${uri} (${how})`)];
      const result = resultOf(call);
      if (result === undefined || result['resultType'] === 'input_required') continue;
      const contents = result['contents'];
      if (!Array.isArray(contents)) {
        ctx.fail(RESOURCES_READ, `${uri} (${how}): the result has no contents array`, evidence);
        continue;
      }
      if (contents.some((c) => isObject(c) && 'blob' in c)) binary = true;
      failProblems(ctx, CONTENT_BASE64, resourceContentProblems(contents, `${uri} contents`), evidence);
      ctx.pass(RESOURCES_READ, `${uri} (${how}): ${contents.length} content item(s)`, evidence);
    }
    if (resources.length === 0 && !ctx.recorded(RESOURCES_READ))
      ctx.notRun(RESOURCES_READ, 'the server lists no resources, and no template expansion could be read');
    if (!binary && !ctx.recorded(CONTENT_BASE64))
      ctx.notRun(CONTENT_BASE64, 'no resource read returned a blob');
    else if (!ctx.recorded(CONTENT_BASE64)) ctx.pass(CONTENT_BASE64, 'blobs are base64');

    const missingUri = 'validator-missing://no/such/resource-7f3a';
    const missing = await ctx.rpc('resources/read', { uri: missingUri });
    const code = factsOf(ctx.revision).resourceNotFoundCode;
    const judgement = isError(missing, code);
    const missingEvidence = [callEvidence(missing, `resources/read ${missingUri}`)];
    ctx.judge(RESOURCES_NOT_FOUND, judgement, missingEvidence);
    const rejected = isAnyError(missing);
    ctx.judge(RESOURCES_UNKNOWN_REJECTED, rejected, missingEvidence);
    const emptyContents = resultOf(missing)?.['contents'];
    if (!factsOf(ctx.revision).resourceNotFoundEmptyContentsRule)
      ctx.notApplicable(RESOURCES_NOT_FOUND_EMPTY, `${ctx.revision} says nothing about empty contents`);
    else
      ctx.expect(
        RESOURCES_NOT_FOUND_EMPTY,
        !(Array.isArray(emptyContents) && emptyContents.length === 0),
        'not answered with empty contents',
        'a resource that does not exist was answered with an empty contents array',
        missingEvidence,
      );

    if (ctx.era === 'legacy') {
      const target = resources.find((r) => typeof r['uri'] === 'string');
      if (!ctx.has('resources.subscribe'))
        ctx.notApplicable(RESOURCES_SUBSCRIBE, 'the server does not advertise resources.subscribe');
      else if (target === undefined) ctx.notRun(RESOURCES_SUBSCRIBE, 'no resource to subscribe to');
      else {
        const uri = target['uri'] as string;
        const subscribe = await ctx.rpc('resources/subscribe', { uri });
        const unsubscribe = await ctx.rpc('resources/unsubscribe', { uri });
        const empty = (value: JsonObject | undefined): boolean =>
          value !== undefined && Object.keys(value).every((key) => key === '_meta');
        ctx.expect(
          RESOURCES_SUBSCRIBE,
          empty(resultOf(subscribe)) && empty(resultOf(unsubscribe)),
          `subscribed to and unsubscribed from ${uri}`,
          `subscribe: ${isResult(subscribe).detail}; unsubscribe: ${isResult(unsubscribe).detail}`,
          [
            callEvidence(subscribe, 'resources/subscribe'),
            callEvidence(unsubscribe, 'resources/unsubscribe'),
          ],
        );
      }
      ctx.notApplicable(RESOURCES_SAME_EVERYWHERE, `${ctx.revision} is session-based`);
    } else {
      ctx.notApplicable(
        RESOURCES_SUBSCRIBE,
        '2026-07-28 replaces resources/subscribe with subscriptions/listen',
      );
      const other = await ctx.otherChannel();
      await compareViewpoints(
        ctx,
        RESOURCES_SAME_EVERYWHERE,
        'resources/list',
        'resources',
        () => ctx.modern(other, 'resources/list', {}),
        {
          same: 'the same resources on another connection',
          other: 'on another connection',
        },
        ctx.target.kind === 'stdio',
      );
    }
  },
};
