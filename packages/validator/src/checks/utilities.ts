/**
 * Server utilities: completion, logging, pagination with forged cursors, and capability gating.
 */
import { factsOf } from '../revisions.js';
import { brief, callEvidence } from '../evidence.js';
import { wireOracle } from '../schema-observer.js';
import { hasCapability, META } from '../session.js';
import { isObject, resultOf, type CallResult, type JsonObject } from '@mcpengine/wire';
import type { ProbeContext } from './context.js';
import { isError, isResult, rejectionFacets } from './expect.js';
import type { Probe } from './probe.js';
import { defineCheck } from './registry.js';

export const COMPLETION_PROMPT = defineCheck(
  'completion.complete',
  'completion',
  'completion/complete answers with at most 100 values for a prompt argument or template variable',
  { facets: ['answered', 'values'] },
);
export const COMPLETION_UNKNOWN = defineCheck(
  'completion.unknown-reference',
  'completion',
  'Completing an argument of an unknown prompt is answered with -32602 (Invalid params)',
  { facets: ['rejected', 'code'] },
);
export const LOGGING_SET_LEVEL = defineCheck(
  'logging.set-level',
  'logging',
  'logging/setLevel with a valid level answers with an empty result',
);
export const LOGGING_INVALID_LEVEL = defineCheck(
  'logging.invalid-level',
  'logging',
  'An invalid log level is rejected with -32602 (Invalid params)',
);
export const LOGGING_LEVEL_THRESHOLD = defineCheck(
  'logging.level-threshold',
  'logging',
  'With a per-request log level, notifications/message for that request come only at or above it',
);
export const LOGGING_OPT_IN = defineCheck(
  'logging.opt-in',
  'logging',
  'No notifications/message is sent for a request without io.modelcontextprotocol/logLevel',
);
export const LOGGING_CAPABILITY = defineCheck(
  'logging.capability',
  'logging',
  'A server that sends log notifications advertises the logging capability',
);
export const CANCELLATION_SERVER_SENT = defineCheck(
  'cancellation.server-sent',
  'cancellation',
  'The server sends notifications/cancelled only to end a subscriptions/listen stream it was asked to open',
);
export const PAGINATION_INVALID_CURSOR = defineCheck(
  'pagination.invalid-cursor',
  'pagination',
  'A forged cursor is rejected with -32602 (Invalid params)',
);
export const CAPABILITY_GATING = defineCheck(
  'capabilities.gating',
  'capabilities',
  'Methods of a capability the server does not advertise are answered with -32601 (Method not found)',
  {
    facets: [
      'tools',
      'resources',
      'prompts',
      'completions',
      'logging',
      'resources.subscribe',
      'completions-error',
      'error-code',
    ],
  },
);

const VALID_LEVEL = 'debug';

export const completionProbe: Probe = {
  name: 'completion',
  eras: ['legacy', 'modern'],
  checks: [COMPLETION_PROMPT, COMPLETION_UNKNOWN],
  async run(ctx) {
    // 2024-11-05 defines completion/complete without a capability.
    if (factsOf(ctx.revision).completionsCapability && !ctx.has('completions')) {
      for (const check of this.checks)
        ctx.notApplicable(check, 'the server does not advertise the completions capability');
      return;
    }
    const prompt = (ctx.inventory.prompts ?? []).find(
      (p) => Array.isArray(p['arguments']) && p['arguments'].some(isObject),
    );
    const template = (ctx.inventory.templates ?? []).find(
      (t) => typeof t['uriTemplate'] === 'string' && /\{[^}]+\}/.test(t['uriTemplate']),
    );
    let params: JsonObject | undefined;
    if (prompt !== undefined) {
      const argument = (prompt['arguments'] as unknown[]).find(isObject) as JsonObject;
      params = {
        ref: { type: 'ref/prompt', name: prompt['name'] },
        argument: { name: argument['name'], value: '' },
      };
    } else if (template !== undefined) {
      const variable = /\{[+#./;?&]?([A-Za-z0-9_]+)/.exec(template['uriTemplate'] as string)?.[1];
      if (variable !== undefined)
        params = {
          ref: { type: 'ref/resource', uri: template['uriTemplate'] },
          argument: { name: variable, value: '' },
        };
    }
    if (params === undefined) {
      ctx.notRun(COMPLETION_PROMPT, 'no prompt argument or template variable to complete');
    } else {
      const call = await ctx.rpc('completion/complete', params);
      const result = resultOf(call);
      const values = isObject(result?.['completion'])
        ? (result['completion'] as JsonObject)['values']
        : undefined;
      ctx.expect(
        COMPLETION_PROMPT,
        Array.isArray(values) && values.length <= 100 && values.every((v) => typeof v === 'string'),
        `${Array.isArray(values) ? values.length : 0} value(s)`,
        result === undefined
          ? isResult(call).detail
          : `completion.values is ${brief(values)}, not at most 100 strings`,
        [callEvidence(call, 'completion/complete')],
        [result === undefined ? 'answered' : 'values'],
      );
    }
    const unknown = await ctx.rpc('completion/complete', {
      ref: { type: 'ref/prompt', name: 'validator_no_such_prompt_7f3a' },
      argument: { name: 'anything', value: '' },
    });
    // Only the code (-32602) comes from a SHOULD ("SHOULD return standard JSON-RPC errors … Invalid prompt
    // name: -32602"); "MUST: Validate all completion inputs" is broken only when the input is not rejected.
    const judgement = isError(unknown, -32602);
    ctx.expect(
      COMPLETION_UNKNOWN,
      judgement.ok,
      judgement.detail,
      judgement.detail,
      [callEvidence(unknown, 'completion/complete for an unknown prompt')],
      rejectionFacets(unknown),
    );
  },
};

export const loggingProbe: Probe = {
  name: 'logging',
  eras: ['legacy', 'modern'],
  checks: [LOGGING_SET_LEVEL, LOGGING_INVALID_LEVEL],
  async run(ctx) {
    if (ctx.era === 'modern') {
      ctx.notApplicable(
        LOGGING_SET_LEVEL,
        '2026-07-28 replaces logging/setLevel with a per-request log level',
      );
      // A per-request level the spec does not define.
      const call = await ctx.rpc('server/discover', {}, { meta: { [META.logLevel]: 'loud' } });
      const judgement = isError(call, -32602);
      ctx.judge(LOGGING_INVALID_LEVEL, judgement, [callEvidence(call, 'a request with logLevel "loud"')]);
      return;
    }
    if (!ctx.has('logging')) {
      for (const check of this.checks)
        ctx.notApplicable(check, 'the server does not advertise the logging capability');
      return;
    }
    const valid = await ctx.rpc('logging/setLevel', { level: VALID_LEVEL });
    const result = resultOf(valid);
    ctx.expect(
      LOGGING_SET_LEVEL,
      result !== undefined && Object.keys(result).every((key) => key === '_meta'),
      'an empty result',
      result === undefined ? isResult(valid).detail : `a non-empty result ${brief(result)}`,
      [callEvidence(valid, `logging/setLevel ${VALID_LEVEL}`)],
    );
    const invalid = await ctx.rpc('logging/setLevel', { level: 'loud' });
    const judgement = isError(invalid, -32602);
    ctx.judge(LOGGING_INVALID_LEVEL, judgement, [callEvidence(invalid, 'logging/setLevel "loud"')]);
  },
};

/** Runs late: judges every notifications/message and notifications/cancelled the server sent. */
export const passiveNotificationsProbe: Probe = {
  name: 'log and cancellation notifications',
  eras: ['legacy', 'modern'],
  checks: [LOGGING_CAPABILITY, CANCELLATION_SERVER_SENT],
  run(ctx) {
    const received = ctx.state.channels.flatMap((channel) => channel.received.map((r) => ({ channel, r })));
    const logs = received.filter(
      ({ r }) => isObject(r.message) && r.message['method'] === 'notifications/message',
    );
    if (logs.length === 0) ctx.notApplicable(LOGGING_CAPABILITY, 'the server sent no log notification');
    else {
      ctx.expect(
        LOGGING_CAPABILITY,
        ctx.has('logging'),
        `${logs.length} log notification(s), logging advertised`,
        `${logs.length} log notification(s) although the logging capability is not advertised`,
        [
          {
            label: 'log notifications',
            received: logs
              .slice(0, 3)
              .map(({ r }) => r.text)
              .join('\n'),
          },
        ],
      );
    }
    if (ctx.era === 'legacy') {
      ctx.notApplicable(CANCELLATION_SERVER_SENT, `${ctx.revision} lets a server cancel its own requests`);
      return Promise.resolve();
    }
    const cancellations = received.filter(
      ({ r }) => isObject(r.message) && r.message['method'] === 'notifications/cancelled',
    );
    const stray = cancellations.filter(({ r }) => {
      const params = (r.message as JsonObject)['params'];
      return !(isObject(params) && ctx.state.listenIds.has(params['requestId']));
    });
    if (cancellations.length === 0)
      ctx.notApplicable(CANCELLATION_SERVER_SENT, 'the server sent no cancellation');
    else {
      ctx.expect(
        CANCELLATION_SERVER_SENT,
        stray.length === 0,
        'cancellations end subscriptions/listen streams only',
        `${stray.length} notifications/cancelled not referencing a subscriptions/listen request`,
        [
          {
            label: 'cancellations',
            received: stray
              .slice(0, 3)
              .map(({ r }) => r.text)
              .join('\n'),
          },
        ],
      );
    }
    return Promise.resolve();
  },
};

const SEVERITY = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

function logLevels(call: CallResult): string[] {
  return call.during
    .map((r) => r.message)
    .filter((m): m is JsonObject => isObject(m) && m['method'] === 'notifications/message')
    .map((m) => (isObject(m['params']) ? String(m['params']['level']) : 'unknown'));
}

/**
 * 2026-07-28: repeats a tool call that logs, first at level debug, then at warning: the messages below warning
 * must stop. Runs on a connection of its own, which the opt-in judge leaves out.
 */
export const loggingLevelProbe: Probe = {
  name: 'logging level',
  eras: ['modern'],
  fresh: (state) => (hasCapability(state.profile, 'tools') ? 1 : 0),
  checks: [LOGGING_LEVEL_THRESHOLD],
  async run(ctx) {
    // Tools that say they log come first; a handful of attempts at most.
    const mentionsLogs = (tool: JsonObject): boolean =>
      /\blog/i.test(`${String(tool['name'])} ${String(tool['description'] ?? '')}`);
    const candidates = ctx.state.toolCalls
      .filter((r) => resultOf(r.call) !== undefined && r.call.elapsedMs < 2000)
      .sort((a, b) => Number(mentionsLogs(b.tool)) - Number(mentionsLogs(a.tool)))
      .slice(0, 4);
    if (candidates.length === 0) {
      ctx.notRun(LOGGING_LEVEL_THRESHOLD, 'no tool call to repeat with a log level');
      return;
    }
    const channel = await ctx.open();
    ctx.state.logLevelChannels.add(channel);
    const threshold = SEVERITY.indexOf('warning');
    for (const record of candidates) {
      const params = record.call.sent['params'];
      const call = { name: record.tool['name'], arguments: isObject(params) ? params['arguments'] : {} };
      const loud = await ctx.modern(channel, 'tools/call', call, { meta: { [META.logLevel]: 'debug' } });
      if (!logLevels(loud).some((level) => SEVERITY.indexOf(level) < threshold)) continue;
      const quiet = await ctx.modern(channel, 'tools/call', call, { meta: { [META.logLevel]: 'warning' } });
      const below = logLevels(quiet).filter((level) => SEVERITY.indexOf(level) < threshold);
      ctx.expect(
        LOGGING_LEVEL_THRESHOLD,
        below.length === 0,
        `${String(call.name)}: logs at ${[...new Set(logLevels(loud))].join(', ')} with level debug, only warning and above with level warning`,
        `${String(call.name)}: with level warning it still logged at ${[...new Set(below)].join(', ')}`,
        [
          callEvidence(loud, `tools/call ${String(call.name)} with logLevel debug`),
          callEvidence(quiet, `tools/call ${String(call.name)} with logLevel warning`),
        ],
      );
      return;
    }
    ctx.notRun(
      LOGGING_LEVEL_THRESHOLD,
      'no repeated tool call logged below warning at level debug, so the threshold could not be observed',
    );
  },
};

/** Runs late: judges every notifications/message seen on modern requests, none of which set a log level. */
export const loggingOptInProbe: Probe = {
  name: 'logging opt-in',
  eras: ['modern'],
  checks: [LOGGING_OPT_IN],
  run(ctx) {
    const logs = ctx.state.channels
      .filter((channel) => !ctx.state.logLevelChannels.has(channel))
      .flatMap((channel) => channel.received)
      .filter((r) => isObject(r.message) && r.message['method'] === 'notifications/message');
    ctx.expect(
      LOGGING_OPT_IN,
      logs.length === 0,
      'no notifications/message although requests carried no log level',
      `${logs.length} notifications/message sent for requests that did not opt in with a log level`,
      logs.length === 0
        ? []
        : [
            {
              label: 'log notifications',
              received: logs
                .slice(0, 3)
                .map((r) => r.text)
                .join('\n'),
            },
          ],
    );
    return Promise.resolve();
  },
};

const LISTS: { method: string; capability: string }[] = [
  { method: 'tools/list', capability: 'tools' },
  { method: 'resources/list', capability: 'resources' },
  { method: 'resources/templates/list', capability: 'resources' },
  { method: 'prompts/list', capability: 'prompts' },
];

export const paginationProbe: Probe = {
  name: 'pagination',
  eras: ['legacy', 'modern'],
  checks: [PAGINATION_INVALID_CURSOR],
  async run(ctx) {
    const lists = LISTS.filter((list) => ctx.has(list.capability));
    if (lists.length === 0) {
      ctx.notApplicable(PAGINATION_INVALID_CURSOR, 'the server advertises no paginated list');
      return;
    }
    for (const { method } of lists) {
      const call = await ctx.rpc(method, { cursor: 'validator-forged-cursor-7f3a' });
      const judgement = isError(call, -32602);
      ctx.judge(
        PAGINATION_INVALID_CURSOR,
        judgement,
        [callEvidence(call, `${method} with a forged cursor`)],
        method,
      );
    }
  },
};

/** Methods tied to a server capability, per revision (those the revision's schema defines). */
const GATED: {
  method: string;
  capability: string;
  params: JsonObject;
  since?: string;
  legacyOnly?: boolean;
}[] = [
  { method: 'tools/list', capability: 'tools', params: {} },
  { method: 'resources/list', capability: 'resources', params: {} },
  { method: 'resources/templates/list', capability: 'resources', params: {} },
  { method: 'prompts/list', capability: 'prompts', params: {} },
  {
    method: 'completion/complete',
    capability: 'completions',
    params: { ref: { type: 'ref/prompt', name: 'validator' }, argument: { name: 'a', value: '' } },
    since: '2025-03-26',
  },
  { method: 'logging/setLevel', capability: 'logging', params: { level: 'info' }, legacyOnly: true },
  {
    method: 'resources/subscribe',
    capability: 'resources.subscribe',
    params: { uri: 'validator://x' },
    legacyOnly: true,
  },
];

export const gatingProbe: Probe = {
  name: 'capability gating',
  eras: ['legacy', 'modern'],
  checks: [CAPABILITY_GATING],
  async run(ctx: ProbeContext) {
    const methods = wireOracle().schemas.revision(ctx.revision).methods;
    const gated = GATED.filter(
      (entry) =>
        methods.definitionFor('request', 'client', entry.method) !== undefined &&
        (entry.since === undefined || ctx.revision >= entry.since) &&
        !ctx.has(entry.capability),
    );
    if (gated.length === 0) {
      ctx.notApplicable(CAPABILITY_GATING, 'the server advertises every capability the revision gates');
      return;
    }
    for (const entry of gated) {
      const call = await ctx.rpc(entry.method, entry.params);
      const judgement = isError(call, -32601);
      // Answered with a result, the method shows the server supports the capability it does not declare.
      const facets = [
        ...(resultOf(call) !== undefined ? [entry.capability] : []),
        ...(entry.capability === 'completions' ? ['completions-error'] : []),
      ];
      ctx.expect(
        CAPABILITY_GATING,
        judgement.ok,
        `${entry.method} without ${entry.capability}: ${judgement.detail}`,
        `${entry.method} although ${entry.capability} is not advertised: ${judgement.detail}`,
        [callEvidence(call, entry.method)],
        facets.length === 0 ? ['error-code'] : facets,
      );
    }
  },
};
