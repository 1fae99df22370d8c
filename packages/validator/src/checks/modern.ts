/**
 * What only the modern era has: subscriptions/listen streams and multi round-trip requests (MRTR).
 */
import { factsOf } from '../revisions.js';
import { brief, callEvidence, clip, messagesEvidence } from '../evidence.js';
import { hasCapability, LegacySession, META, modernRequest } from '../session.js';
import {
  isObject,
  notification,
  resultOf,
  sameId,
  type CallResult,
  type JsonObject,
  type Received,
} from '@mcpengine/wire';
import type { ProbeContext } from './context.js';
import { errorCode, isResult } from './expect.js';
import { sampleInstance } from './instances.js';
import type { Probe } from './probe.js';
import { CLIENT_CAPABILITY_FACETS, clientCapabilityFacets } from './client-capabilities.js';
import { defineCheck } from './registry.js';

export const SUB_ACK = defineCheck(
  'subscriptions.acknowledged',
  'subscriptions',
  'subscriptions/listen is first answered by notifications/subscriptions/acknowledged carrying the subscription id',
  // refused: answered with a response (or nothing) instead of an acknowledgment; first: the acknowledgment is not
  // the first message of the subscription; before: a notification of the subscription came before it.
  { facets: ['refused', 'first', 'before'] },
);
export const SUB_FILTER = defineCheck(
  'subscriptions.filter',
  'subscriptions',
  'The acknowledged filter holds only requested types, and only requested notification types are sent (no request-scoped log messages)',
  { facets: ['types', 'logs'] },
);
export const SUB_ID = defineCheck(
  'subscriptions.subscription-id',
  'subscriptions',
  'Every notification on a subscription carries io.modelcontextprotocol/subscriptionId',
);
export const MRTR_UNDECLARED = defineCheck(
  'mrtr.declared-capabilities',
  'mrtr',
  'An InputRequiredResult asks only for input the client declared (none when it declared no capabilities)',
  { facets: CLIENT_CAPABILITY_FACETS },
);
export const MRTR_ROUND_TRIP = defineCheck(
  'mrtr.round-trip',
  'mrtr',
  'Retrying with inputResponses (and the requestState) completes the request',
);
export const MRTR_TAMPERED = defineCheck(
  'mrtr.tampered-state',
  'mrtr',
  'A retry with a tampered requestState is rejected with an error',
);
export const MRTR_MISSING_CAPABILITY = defineCheck(
  'mrtr.missing-capability-error',
  'mrtr',
  'A request needing an undeclared client capability gets -32021 listing data.requiredCapabilities',
);

export const ELICITATION_REQUESTS = defineCheck(
  'elicitation.requests',
  'mrtr',
  'Elicitation requests use only modes the client declared, carry a message (and a form schema), and ask for nothing sensitive through a form',
  { facets: ['modes', 'params', 'form', 'sensitive', 'url', 'url-valid'] },
);
export const MRTR_DECLINE = defineCheck(
  'mrtr.decline',
  'mrtr',
  'A declined elicitation is handled: the retry gets a result, an error or a new request for input, never silence',
);
export const MRTR_INVALID_RESPONSES = defineCheck(
  'mrtr.invalid-responses',
  'mrtr',
  'A retry whose inputResponses is not an object is rejected with a JSON-RPC error',
);
export const MRTR_EXTRA_RESPONSES = defineCheck(
  'mrtr.extra-responses',
  'mrtr',
  'Unexpected entries in inputResponses are ignored (the retry still completes)',
);
export const MRTR_MISSING_RESPONSES = defineCheck(
  'mrtr.missing-responses',
  'mrtr',
  'A retry missing the requested input gets a new InputRequiredResult rather than an error',
);

const SENSITIVE_FIELD =
  /pass(word|wd|phrase)?\b|secret|api[_ -]?key|access[_ -]?token|\btoken\b|credit[_ -]?card|card[_ -]?number|\bcvv\b|\bssn\b/i;

/** What is wrong with an elicitation request, given the modes the client declared. */
export function elicitationProblems(
  request: unknown,
  declaredModes: readonly string[],
): { text: string; facet: string }[] {
  if (!isObject(request)) return [{ text: 'not an object', facet: 'params' }];
  const params = isObject(request['params']) ? request['params'] : {};
  const mode = typeof params['mode'] === 'string' ? params['mode'] : 'form';
  const problems: { text: string; facet: string }[] = [];
  const add = (text: string, facet: string): void => void problems.push({ text, facet });
  if (!declaredModes.includes(mode))
    add(`mode ${JSON.stringify(mode)} was not declared by the client`, 'modes');
  if (typeof params['message'] !== 'string') add('no message', 'params');
  if (mode === 'form') {
    const schema = params['requestedSchema'];
    if (!isObject(schema) || schema['type'] !== 'object')
      add('form mode without an object requestedSchema', 'form');
    const properties = isObject(schema) && isObject(schema['properties']) ? schema['properties'] : {};
    for (const [name, property] of Object.entries(properties)) {
      const label = `${name} ${isObject(property) ? `${String(property['title'] ?? '')} ${String(property['description'] ?? '')}` : ''}`;
      if (SENSITIVE_FIELD.test(label)) add(`form mode asks for a sensitive value (${name})`, 'sensitive');
    }
  }
  if (mode === 'url') {
    if (typeof params['url'] !== 'string') add('url mode without a url', 'url');
    else {
      try {
        new URL(params['url']);
      } catch {
        add(`url ${brief(params['url'])} is not a valid URL`, 'url-valid');
      }
    }
    if (typeof params['elicitationId'] !== 'string') add('url mode without an elicitationId', 'url');
  }
  return problems;
}

const REQUESTED = { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true };

function metaOf(message: unknown): JsonObject {
  if (!isObject(message)) return {};
  const params = isObject(message['params'])
    ? message['params']
    : isObject(message['result'])
      ? message['result']
      : {};
  return isObject(params['_meta']) ? params['_meta'] : {};
}

export const subscriptionsProbe: Probe = {
  name: 'subscriptions/listen',
  eras: ['modern'],
  // The second shared connection (also used by the comparisons of the listing probes).
  fresh: () => 1,
  checks: [SUB_ACK, SUB_FILTER, SUB_ID],
  async run(ctx) {
    const channel = await ctx.otherChannel();
    const message = modernRequest(channel, ctx.revision, 'subscriptions/listen', {
      notifications: REQUESTED,
    });
    const id = message['id'];
    ctx.state.listenIds.add(id);
    const isAck = (r: Received): boolean =>
      isObject(r.message) &&
      r.message['method'] === 'notifications/subscriptions/acknowledged' &&
      sameId(metaOf(r.message)[META.subscriptionId], id);
    const isResponse = (r: Received): boolean =>
      isObject(r.message) && !('method' in r.message) && sameId(r.message['id'], id);
    const raw = await channel.raw(JSON.stringify(message), {
      timeoutMs: Math.min(ctx.settings.requestTimeoutMs, 5000),
      until: (r) => isAck(r) || isResponse(r),
    });
    ctx.schema.messages(raw.received);
    // Let a little more arrive (stray notifications), then end the subscription.
    const more = ctx.target.kind === 'stdio' ? await channel.collect(300) : [];
    if (ctx.target.kind === 'stdio')
      await channel.send(notification('notifications/cancelled', { requestId: id }));
    const received = [...raw.received, ...more];
    const evidence = [
      {
        label: 'subscriptions/listen',
        sent: clip(raw.sentText),
        received: clip(received.map((r) => r.text).join('\n')),
      },
    ];
    const mine = received.filter((r) => sameId(metaOf(r.message)[META.subscriptionId], id));
    const first = mine[0];
    const response = received.find(isResponse);
    if (first === undefined || !isAck(first)) {
      ctx.fail(
        SUB_ACK,
        response !== undefined
          ? `answered ${brief(response.text)} instead of acknowledging`
          : first !== undefined
            ? `the first message of the subscription is ${brief(first.text)}, not the acknowledgment`
            : 'no acknowledgment arrived',
        evidence,
        // A response or silence is a refusal (no notification came before an acknowledgment: there was none).
        response !== undefined
          ? ['refused']
          : first !== undefined
            ? ['first', 'before']
            : ['refused', 'first'],
      );
      ctx.notRun(SUB_FILTER, 'no acknowledgment');
      ctx.notRun(SUB_ID, 'no acknowledgment');
      return;
    }
    ctx.pass(SUB_ACK, 'acknowledged first, with the subscription id', evidence);
    const ackParams = isObject((first.message as JsonObject)['params'])
      ? ((first.message as JsonObject)['params'] as JsonObject)
      : {};
    const acknowledged = isObject(ackParams['notifications']) ? ackParams['notifications'] : {};
    const extra = Object.keys(acknowledged).filter((key) => !(key in REQUESTED));
    const types = received
      .filter(
        (r) =>
          isObject(r.message) &&
          typeof r.message['method'] === 'string' &&
          !isAck(r) &&
          !('id' in (r.message as JsonObject)),
      )
      .map((r) => (r.message as JsonObject)['method'] as string);
    // The three list-change types were requested; notifications/cancelled may end the subscription. Log messages
    // are request-scoped and never belong on a subscription stream.
    const allowed = [
      'notifications/tools/list_changed',
      'notifications/prompts/list_changed',
      'notifications/resources/list_changed',
      'notifications/cancelled',
    ];
    const unrequested = types.filter((method) => !allowed.includes(method));
    const facets = [
      ...(extra.length > 0 || unrequested.some((m) => m !== 'notifications/message') ? ['types'] : []),
      ...(unrequested.includes('notifications/message') ? ['logs'] : []),
    ];
    ctx.expect(
      SUB_FILTER,
      extra.length === 0 && unrequested.length === 0,
      `acknowledged ${brief(acknowledged)}`,
      extra.length > 0
        ? `the acknowledgment adds types that were not requested: ${extra.join(', ')}`
        : `notifications of unrequested types: ${[...new Set(unrequested)].join(', ')}`,
      evidence,
      facets,
    );
    const listChanges = received.filter(
      (r) =>
        isObject(r.message) &&
        typeof r.message['method'] === 'string' &&
        /list_changed|resources\/updated/.test(r.message['method']),
    );
    const withoutId = listChanges.filter((r) => metaOf(r.message)[META.subscriptionId] === undefined);
    if (listChanges.length === 0)
      ctx.pass(
        SUB_ID,
        'the acknowledgment carries the subscription id (no other notification arrived)',
        evidence,
      );
    else
      ctx.expect(
        SUB_ID,
        withoutId.length === 0,
        'every notification carries the subscription id',
        `${withoutId.length} notification(s) without the subscription id`,
        [messagesEvidence(withoutId, 'notifications')],
      );
  },
};

const CAPABILITIES = { elicitation: { form: {} }, sampling: {}, roots: {} };

/** A plausible answer to each input request, so the round trip can complete. */
function answer(request: unknown): JsonObject | undefined {
  if (!isObject(request)) return undefined;
  const params = isObject(request['params']) ? request['params'] : {};
  switch (request['method']) {
    case 'elicitation/create': {
      const schema = isObject(params['requestedSchema']) ? params['requestedSchema'] : { type: 'object' };
      const content = sampleInstance(schema);
      return { action: 'accept', content: isObject(content) ? content : {} };
    }
    case 'sampling/createMessage':
      return {
        role: 'assistant',
        content: { type: 'text', text: 'validator sample' },
        model: 'validator',
        stopReason: 'endTurn',
      };
    case 'roots/list':
      return { roots: [] };
    default:
      return undefined;
  }
}

function inputRequired(call: CallResult | undefined): JsonObject | undefined {
  const result = resultOf(call);
  return result?.['resultType'] === 'input_required' ? result : undefined;
}

export const mrtrProbe: Probe = {
  name: 'multi round-trip requests',
  eras: ['modern'],
  checks: [
    MRTR_UNDECLARED,
    MRTR_ROUND_TRIP,
    MRTR_TAMPERED,
    MRTR_MISSING_CAPABILITY,
    ELICITATION_REQUESTS,
    MRTR_DECLINE,
    MRTR_INVALID_RESPONSES,
    MRTR_EXTRA_RESPONSES,
    MRTR_MISSING_RESPONSES,
  ],
  async run(ctx: ProbeContext) {
    const records = ctx.state.toolCalls;
    const undeclared = records.filter((record) => {
      const result = inputRequired(record.call);
      return (
        result !== undefined &&
        isObject(result['inputRequests']) &&
        Object.keys(result['inputRequests']).length > 0
      );
    });
    const asked = records.filter(
      (record) => inputRequired(record.call) !== undefined || errorCode(record.call) === -32021,
    );
    if (asked.length === 0) {
      for (const check of this.checks) {
        if (records.length === 0) ctx.notRun(check, 'no tool was called (use --call <tool> or --call-all)');
        else ctx.notApplicable(check, 'no called tool asked for client input');
      }
      return;
    }
    ctx.expect(
      MRTR_UNDECLARED,
      undeclared.length === 0,
      'input requests only within the declared (empty) capabilities',
      `${undeclared.map((r) => String(r.tool['name'])).join(', ')} asked for input the client did not declare`,
      undeclared
        .slice(0, 2)
        .map((r) => callEvidence(r.call, `tools/call ${String(r.tool['name'])} with no client capabilities`)),
      undeclared.flatMap((r) =>
        Object.values((inputRequired(r.call)!['inputRequests'] as JsonObject) ?? {}).flatMap(
          clientCapabilityFacets,
        ),
      ),
    );
    const refused = asked.filter((record) => errorCode(record.call) === -32021);
    for (const record of refused) {
      const error = record.call.response?.['error'] as JsonObject;
      const data = isObject(error['data']) ? error['data'] : {};
      ctx.expect(
        MRTR_MISSING_CAPABILITY,
        isObject(data['requiredCapabilities']),
        `${String(record.tool['name'])}: -32021 with requiredCapabilities ${brief(data['requiredCapabilities'])}`,
        `${String(record.tool['name'])}: -32021 without data.requiredCapabilities`,
        [callEvidence(record.call)],
      );
    }
    if (refused.length === 0)
      ctx.notRun(MRTR_MISSING_CAPABILITY, 'no tool refused for a missing client capability');

    // Round trips with every client capability declared.
    let tampered = false;
    const variants = new Set<string>();
    for (const record of asked.slice(0, 5)) {
      const name = String(record.tool['name']);
      const args = (record.call.sent['params'] as JsonObject)['arguments'];
      let call = await ctx.rpc('tools/call', { name, arguments: args }, { capabilities: CAPABILITIES });
      const transcript = [
        callEvidence(call, `tools/call ${name} with elicitation, sampling and roots declared`),
      ];
      for (let round = 0; round < 5; round++) {
        const result = inputRequired(call);
        if (result === undefined) break;
        const requests = isObject(result['inputRequests']) ? result['inputRequests'] : {};
        const responses: JsonObject = {};
        for (const [key, request] of Object.entries(requests)) {
          const response = answer(request);
          if (response !== undefined) responses[key] = response;
        }
        for (const request of Object.values(requests)) {
          if (!isObject(request) || request['method'] !== 'elicitation/create') continue;
          const problems = elicitationProblems(request, ['form']);
          ctx.expect(
            ELICITATION_REQUESTS,
            problems.length === 0,
            `${name}: a well-formed form elicitation`,
            `${name}: ${problems.map((p) => p.text).join('; ')}`,
            [callEvidence(call, `tools/call ${name}`)],
            problems.map((p) => p.facet),
          );
        }
        const state = result['requestState'];
        const retry = (inputResponses: unknown, requestState: unknown = state) =>
          ctx.rpc(
            'tools/call',
            {
              name,
              arguments: args,
              inputResponses,
              ...(typeof requestState === 'string' ? { requestState } : {}),
            },
            { capabilities: CAPABILITIES },
          );
        if (round === 0 && Object.keys(requests).length > 0 && !variants.has(name)) {
          variants.add(name);
          const invalid = await retry('not-an-object');
          ctx.expect(
            MRTR_INVALID_RESPONSES,
            isObject(invalid.response?.['error']),
            `${name}: rejected with error ${brief(errorCode(invalid))}`,
            `${name}: inputResponses "not-an-object" got ${isResult(invalid).ok ? brief(resultOf(invalid)) : isResult(invalid).detail}`,
            [callEvidence(invalid, `tools/call ${name} with inputResponses that is not an object`)],
          );
          const missing = await retry({});
          ctx.expect(
            MRTR_MISSING_RESPONSES,
            inputRequired(missing) !== undefined,
            `${name}: asked again for the missing input`,
            `${name}: a retry without the requested input got ${isResult(missing).ok ? brief(resultOf(missing)) : isResult(missing).detail}`,
            [callEvidence(missing, `tools/call ${name} retried without inputResponses`)],
          );
          const extra = await retry({
            ...responses,
            validator_unexpected: { action: 'accept', content: {} },
          });
          const extraResult = resultOf(extra);
          ctx.expect(
            MRTR_EXTRA_RESPONSES,
            extraResult !== undefined,
            `${name}: the extra entry was ignored`,
            `${name}: an extra inputResponses entry got ${isResult(extra).detail}`,
            [callEvidence(extra, `tools/call ${name} with an extra inputResponses entry`)],
          );
          const elicitKeys = Object.entries(requests)
            .filter(([, r]) => isObject(r) && r['method'] === 'elicitation/create')
            .map(([k]) => k);
          if (elicitKeys.length > 0) {
            const declined = await retry({
              ...responses,
              ...Object.fromEntries(elicitKeys.map((k) => [k, { action: 'decline' }])),
            });
            ctx.expect(
              MRTR_DECLINE,
              declined.response !== undefined,
              `${name}: a declined elicitation got ${resultOf(declined) !== undefined ? String(resultOf(declined)!['resultType'] ?? 'a result') : `error ${brief(errorCode(declined))}`}`,
              `${name}: a declined elicitation got ${isResult(declined).detail}`,
              [callEvidence(declined, `tools/call ${name} with the elicitation declined`)],
            );
          }
        }
        if (!tampered && typeof state === 'string' && state.length > 0) {
          tampered = true;
          const forged = state.slice(0, -1) + (state.endsWith('A') ? 'B' : 'A');
          const bad = await ctx.rpc(
            'tools/call',
            { name, arguments: args, inputResponses: responses, requestState: forged },
            { capabilities: CAPABILITIES },
          );
          ctx.expect(
            MRTR_TAMPERED,
            isObject(bad.response?.['error']),
            `rejected with error ${brief(errorCode(bad))}`,
            `a tampered requestState was accepted: ${isResult(bad).ok ? brief(resultOf(bad)) : isResult(bad).detail}`,
            [callEvidence(bad, `tools/call ${name} retried with a tampered requestState`)],
          );
        }
        call = await ctx.rpc(
          'tools/call',
          {
            name,
            arguments: args,
            inputResponses: responses,
            ...(typeof state === 'string' ? { requestState: state } : {}),
          },
          { capabilities: CAPABILITIES },
        );
        transcript.push(callEvidence(call, `retry ${round + 1}`));
      }
      const final = resultOf(call);
      ctx.expect(
        MRTR_ROUND_TRIP,
        final !== undefined && final['resultType'] !== 'input_required',
        `${name} completed after answering its input requests`,
        `${name}: ${final === undefined ? isResult(call).detail : 'still asking for input after 5 rounds'}`,
        transcript.slice(-3),
      );
    }
    if (!tampered) ctx.notRun(MRTR_TAMPERED, 'no InputRequiredResult carried a requestState');
    for (const check of [
      ELICITATION_REQUESTS,
      MRTR_DECLINE,
      MRTR_INVALID_RESPONSES,
      MRTR_EXTRA_RESPONSES,
      MRTR_MISSING_RESPONSES,
    ]) {
      if (!ctx.recorded(check))
        ctx.notApplicable(check, 'no called tool asked for input once the capabilities were declared');
    }
  },
};

/**
 * Legacy revisions: a session that declares elicitation (form), sampling and roots, in which the callable tools
 * are called again so that requests the server sends to a capable client can be judged.
 */
export const legacyClientFeaturesProbe: Probe = {
  name: 'server requests to a capable client',
  eras: ['legacy'],
  fresh: (state) => (hasCapability(state.profile, 'tools') ? 1 : 0),
  revisions: (revision) => factsOf(revision).elicitation !== 'none',
  checks: [ELICITATION_REQUESTS],
  async run(ctx: ProbeContext) {
    const tools = (ctx.inventory.tools ?? []).filter((tool) => ctx.mayCall(tool));
    const slow = new Set(
      ctx.state.toolCalls
        .filter((r) =>
          r.call.during.some((d) => isObject(d.message) && d.message['method'] === 'notifications/progress'),
        )
        .map((r) => r.tool['name']),
    );
    const candidates = ctx.state.toolCalls.filter((r) => tools.includes(r.tool) && !slow.has(r.tool['name']));
    if (candidates.length === 0) {
      ctx.notRun(ELICITATION_REQUESTS, 'no callable tool to call again with client capabilities declared');
      return;
    }
    const channel = await ctx.open();
    ctx.state.capable.add(channel);
    const modes = ['form'];
    const elicitations: JsonObject[] = [];
    const policyChannel = channel as typeof channel & {
      policy?: (request: JsonObject) => JsonObject | undefined;
    };
    policyChannel.policy = (request) => {
      const id = request['id'];
      switch (request['method']) {
        case 'ping':
          return { jsonrpc: '2.0', id, result: {} };
        case 'elicitation/create': {
          elicitations.push(request);
          return { jsonrpc: '2.0', id, result: answer(request) ?? { action: 'decline' } };
        }
        case 'sampling/createMessage':
        case 'roots/list':
          return { jsonrpc: '2.0', id, result: answer(request) ?? {} };
        default:
          return { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } };
      }
    };
    const capabilities =
      factsOf(ctx.revision).elicitation === 'modes'
        ? { elicitation: { form: {} }, sampling: {}, roots: {} }
        : { elicitation: {}, sampling: {}, roots: {} };
    const { session } = await LegacySession.open(channel, ctx.revision, {
      capabilities,
      timeoutMs: ctx.settings.requestTimeoutMs,
    });
    if (session === undefined) {
      ctx.notRun(ELICITATION_REQUESTS, 'a session with client capabilities could not be initialized');
      return;
    }
    for (const record of candidates.slice(0, 10)) {
      const params = record.call.sent['params'] as JsonObject;
      await session.request(
        'tools/call',
        { name: params['name'], arguments: params['arguments'] },
        { timeoutMs: ctx.settings.requestTimeoutMs },
      );
    }
    if (elicitations.length === 0) {
      ctx.notApplicable(ELICITATION_REQUESTS, 'no called tool sent an elicitation request');
      return;
    }
    for (const request of elicitations) {
      const problems = elicitationProblems(request, modes);
      ctx.expect(
        ELICITATION_REQUESTS,
        problems.length === 0,
        'a well-formed form elicitation',
        problems.map((p) => p.text).join('; '),
        [{ label: 'elicitation/create from the server', received: clip(JSON.stringify(request)) }],
        problems.map((p) => p.facet),
      );
    }
  },
};
