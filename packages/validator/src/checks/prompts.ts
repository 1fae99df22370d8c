/**
 * Prompts: the list, getting each prompt, and the errors for unknown prompts and missing arguments.
 */
import { brief, callEvidence } from '../evidence.js';
import { isObject, resultOf, type JsonObject } from '@mcpengine/wire';
import { binaryProblems, CONTENT_BASE64, failProblems } from './content.js';
import { wireOracle } from '../schema-observer.js';
import { isError, isResult } from './expect.js';
import { CACHING_HINTS, compareViewpoints, judgeListing, listAll, PAGINATION_CURSORS } from './listing.js';
import type { Probe } from './probe.js';
import { defineCheck } from './registry.js';

export const PROMPTS_LIST = defineCheck(
  'prompts.list',
  'prompts',
  'prompts/list answers with the prompts (every page readable)',
);
export const PROMPTS_GET = defineCheck(
  'prompts.get',
  'prompts',
  'Getting a listed prompt (required arguments filled) returns its messages, valid under GetPromptResult',
  { facets: ['answer', 'structure', 'resource-uri', 'resource-content'] },
);

/** Which rule a GetPromptResult schema error breaks: embedded resources need a URI and text or a blob. */
function getPromptFacet(error: string): string {
  if (/\/resource\/uri\b/.test(error) || /\/resource must have required property 'uri'/.test(error))
    return 'resource-uri';
  if (/\/resource\b/.test(error)) return 'resource-content';
  return 'structure';
}
export const PROMPTS_UNKNOWN = defineCheck(
  'prompts.unknown',
  'prompts',
  'Getting an unknown prompt is answered with -32602 (Invalid params)',
);
export const PROMPTS_MISSING_ARGUMENTS = defineCheck(
  'prompts.missing-arguments',
  'prompts',
  'Getting a prompt without its required arguments is answered with -32602 (Invalid params)',
);
export const PROMPTS_SAME_EVERYWHERE = defineCheck(
  'prompts.list-per-connection',
  'prompts',
  'prompts/list returns the same set on another connection (no per-connection state)',
);
export const PROMPTS_IMAGE = defineCheck(
  'prompts.binary-content',
  'prompts',
  'Image and audio content in prompt messages is base64 with a valid MIME type',
  { facets: ['image', 'audio'] },
);

const MAX_GETS = 10;

function requiredArguments(prompt: JsonObject): string[] {
  const args = Array.isArray(prompt['arguments']) ? prompt['arguments'] : [];
  return args
    .filter(isObject)
    .filter((a) => a['required'] === true && typeof a['name'] === 'string')
    .map((a) => a['name'] as string);
}

export const promptsProbe: Probe = {
  name: 'prompts',
  eras: ['legacy', 'modern'],
  checks: [
    PROMPTS_LIST,
    PROMPTS_GET,
    PROMPTS_UNKNOWN,
    PROMPTS_MISSING_ARGUMENTS,
    PROMPTS_IMAGE,
    PROMPTS_SAME_EVERYWHERE,
    PAGINATION_CURSORS,
    CACHING_HINTS,
  ],
  async run(ctx) {
    if (!ctx.has('prompts')) {
      for (const check of this.checks)
        ctx.notApplicable(check, 'the server does not advertise the prompts capability');
      return;
    }
    const listing = await listAll(ctx, 'prompts/list', 'prompts');
    judgeListing(ctx, 'prompts/list', listing, 'prompts');
    const first = listing.pages[0];
    if (listing.failure !== undefined) {
      ctx.fail(
        PROMPTS_LIST,
        `prompts/list failed: ${listing.failure}`,
        listing.pages.slice(-1).map((c) => callEvidence(c, 'prompts/list')),
      );
    } else {
      ctx.pass(
        PROMPTS_LIST,
        `${listing.items.length} prompt(s)`,
        first ? [callEvidence(first, 'prompts/list')] : [],
      );
    }
    const prompts = listing.items;
    ctx.inventory.prompts = prompts;

    let binarySeen = false;
    for (const prompt of prompts.slice(0, MAX_GETS)) {
      const name = prompt['name'];
      if (typeof name !== 'string') continue;
      // Prompt arguments have no schema: a plain word, or a URI for arguments named like one.
      const args = Object.fromEntries(
        requiredArguments(prompt).map((arg) => [
          arg,
          /uri|url|link/i.test(arg) ? 'test://validator' : 'validator',
        ]),
      );
      const call = await ctx.rpc('prompts/get', { name, arguments: args });
      const evidence = [callEvidence(call, `prompts/get ${name}`)];
      const result = resultOf(call);
      if (result === undefined) {
        // Prompt arguments carry no schema, so an error for the validator's placeholder values proves nothing.
        if (call.response !== undefined && 'error' in call.response)
          ctx.notRun(PROMPTS_GET, `${name}: ${isResult(call).detail}`, evidence);
        else ctx.fail(PROMPTS_GET, `${name}: ${isResult(call).detail}`, evidence, ['answer']);
        continue;
      }
      if (result['resultType'] === 'input_required') {
        ctx.pass(PROMPTS_GET, `${name}: input required (multi round-trip)`, evidence);
        continue;
      }
      const messages = Array.isArray(result['messages']) ? result['messages'] : undefined;
      if (messages === undefined) {
        ctx.fail(PROMPTS_GET, `${name}: no messages array`, evidence, ['answer']);
        continue;
      }
      const violation = wireOracle().check(call.response, {
        revision: ctx.revision,
        sender: 'server',
        inReplyTo: 'prompts/get',
      });
      if (violation !== null) {
        ctx.fail(
          PROMPTS_GET,
          `${name}: the result does not match GetPromptResult: ${violation.errors.slice(0, 3).join('; ')}`,
          evidence,
          violation.errors.map(getPromptFacet),
        );
        continue;
      }
      ctx.pass(PROMPTS_GET, `${name}: ${messages.length} message(s)`, evidence);
      const contents = messages.filter(isObject).map((m) => m['content']);
      if (contents.some((c) => isObject(c) && (c['type'] === 'image' || c['type'] === 'audio')))
        binarySeen = true;
      const problems = binaryProblems(contents, `${name} messages`);
      // prompts.binary-content knows two rules: the image one and the audio one (data and MIME type each).
      failProblems(
        ctx,
        PROMPTS_IMAGE,
        problems.filter((p) => p.facet !== 'blob').map((p) => ({ ...p, facet: p.facet.split('-')[0]! })),
        evidence,
      );
      failProblems(ctx, CONTENT_BASE64, problems, evidence);
    }
    if (prompts.length === 0) ctx.notRun(PROMPTS_GET, 'the server lists no prompts');
    if (!binarySeen) ctx.notRun(PROMPTS_IMAGE, 'no prompt returned image or audio content');
    else if (!ctx.recorded(PROMPTS_IMAGE))
      ctx.pass(PROMPTS_IMAGE, 'image and audio content is base64 with MIME types');
    if (!ctx.recorded(CONTENT_BASE64)) ctx.notRun(CONTENT_BASE64, 'judged on tool results and resources');

    if (ctx.era === 'modern') {
      const other = await ctx.otherChannel();
      await compareViewpoints(
        ctx,
        PROMPTS_SAME_EVERYWHERE,
        'prompts/list',
        'prompts',
        () => ctx.modern(other, 'prompts/list', {}),
        {
          same: 'the same prompts on another connection',
          other: 'on another connection',
        },
        ctx.target.kind === 'stdio',
      );
    } else {
      ctx.notApplicable(PROMPTS_SAME_EVERYWHERE, `${ctx.revision} is session-based`);
    }

    const unknown = await ctx.rpc('prompts/get', { name: 'validator_no_such_prompt_7f3a', arguments: {} });
    const judgement = isError(unknown, -32602);
    ctx.judge(PROMPTS_UNKNOWN, judgement, [callEvidence(unknown, 'prompts/get of an unknown prompt')]);

    const needy = prompts.find(
      (prompt) => typeof prompt['name'] === 'string' && requiredArguments(prompt).length > 0,
    );
    if (needy === undefined) {
      ctx.notRun(PROMPTS_MISSING_ARGUMENTS, 'no prompt has required arguments');
    } else {
      const call = await ctx.rpc('prompts/get', { name: needy['name'] as string, arguments: {} });
      const missing = isError(call, -32602);
      ctx.expect(
        PROMPTS_MISSING_ARGUMENTS,
        missing.ok,
        `${String(needy['name'])}: ${missing.detail}`,
        `${String(needy['name'])} without ${brief(requiredArguments(needy))}: ${missing.detail}`,
        [callEvidence(call, `prompts/get ${String(needy['name'])} without arguments`)],
      );
    }
  },
};
