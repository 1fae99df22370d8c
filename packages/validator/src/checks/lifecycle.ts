/**
 * Lifecycle and version negotiation: the legacy `initialize` handshake, and the modern era's per-request
 * version with `server/discover`.
 */
import { LEGACY_REVISIONS } from '../catalog/model.js';
import { factsOf } from '../revisions.js';
import { MODERN_REVISION, UNSUPPORTED_VERSION } from '../discovery.js';
import { brief, callEvidence, messagesEvidence } from '../evidence.js';
import { META_KEY } from '../schema-observer.js';
import { initializeRequest, LegacySession, META, modernRequest } from '../session.js';
import {
  isObject,
  notification,
  resultOf,
  type CallResult,
  type Channel,
  type JsonObject,
  type Received,
} from '@mcpengine/wire';
import { DEFAULT_PING_BOUND_MS, type ProbeContext, type RevisionState } from './context.js';
import type { Outcome } from '../outcomes.js';
import { errorCode, isError, isResult, missing, rejectionFacets } from './expect.js';
import { CACHING_HINTS, judgeCaching } from './listing.js';
import type { Probe } from './probe.js';
import { CLIENT_CAPABILITY_FACETS, clientCapabilityFacets } from './client-capabilities.js';
import { defineCheck } from './registry.js';

export const INITIALIZE_RESULT = defineCheck(
  'lifecycle.initialize-result',
  'lifecycle',
  'initialize is answered with the server’s protocolVersion, capabilities and serverInfo',
);
export const VERSION_ECHO = defineCheck(
  'lifecycle.version-echo',
  'lifecycle',
  'A supported protocol version requested in initialize is answered with that same version',
);
export const VERSION_UNSUPPORTED = defineCheck(
  'lifecycle.version-unsupported',
  'lifecycle',
  'An unsupported protocol version is answered with another version the server supports',
);
export const VERSION_LATEST = defineCheck(
  'lifecycle.version-latest',
  'lifecycle',
  'The version offered for an unsupported request is the latest the server supports',
);
export const VERSION_MALFORMED = defineCheck(
  'lifecycle.version-malformed',
  'lifecycle',
  'A non-string protocolVersion in initialize is rejected with -32602 (Invalid params)',
  { facets: ['rejected', 'code'] },
);
export const BEFORE_INITIALIZE = defineCheck(
  'lifecycle.request-before-initialize',
  'lifecycle',
  'A request sent before initialize gets a JSON-RPC response, and the server can still be initialized',
);
export const PING_BEFORE_INITIALIZE = defineCheck(
  'lifecycle.ping-before-initialize',
  'lifecycle',
  'A ping sent before initialize is answered with an empty result',
);
export const QUIET_UNTIL_INITIALIZED = defineCheck(
  'lifecycle.quiet-until-initialized',
  'lifecycle',
  'The server sends no requests other than pings before the initialized notification',
);
export const PING = defineCheck(
  'lifecycle.ping',
  'lifecycle',
  'ping is answered promptly with an empty result',
);
export const NOTIFICATION_UNANSWERED = defineCheck(
  'jsonrpc.notification-unanswered',
  'jsonrpc',
  'Notifications get no response (not even an error for an unknown notification)',
);
export const NEGOTIATED_CAPABILITIES = defineCheck(
  'lifecycle.negotiated-capabilities',
  'lifecycle',
  'The server sends no requests that need a client capability the validator did not declare',
  { facets: CLIENT_CAPABILITY_FACETS },
);

export const UNDECLARED_NOTIFICATIONS = defineCheck(
  'capabilities.undeclared-notifications',
  'capabilities',
  'The server sends no notification of a capability it did not declare (list_changed without listChanged…)',
);

/** Server notifications that belong to a capability, and the capability each needs (legacy revisions). */
const NOTIFICATION_CAPABILITY: Readonly<Record<string, string>> = {
  'notifications/tools/list_changed': 'tools.listChanged',
  'notifications/prompts/list_changed': 'prompts.listChanged',
  'notifications/resources/list_changed': 'resources.listChanged',
  'notifications/resources/updated': 'resources.subscribe',
  'notifications/message': 'logging',
};

export const CONNECTIONS = defineCheck(
  'transport.connections',
  'lifecycle',
  'The server accepts every connection the validator opens (several, one after another and side by side, as several clients would)',
);

/**
 * Judges the connections of one revision run (discovery's included): any the server refused is a failure, with
 * what the validator tried and what it got. A pass is recorded only where statements name the check (HTTP+SSE in
 * 2024-11-05: "When a client connects, the server MUST send an endpoint event"); elsewhere a refusal is still
 * recorded and fails the run (see run.ts).
 */
export function judgeConnections(state: RevisionState): Outcome | undefined {
  const refused = [...state.discovery.refused, ...state.refused];
  if (refused.length === 0) {
    if (state.target.kind !== 'sse' || factsOf(state.revision).httpTransport !== 'sse') return undefined;
    return {
      check: CONNECTIONS,
      status: 'pass',
      message: `every connection was accepted (${state.target.opened.length} opened)`,
      evidence: [],
    };
  }
  return {
    check: CONNECTIONS,
    status: 'fail',
    message: `the server refused ${refused.length} connection${refused.length === 1 ? '' : 's'} (the validator opens several, as several clients would): ${brief(refused[0]!.error)}`,
    evidence: refused.slice(0, 3).map((connection) => ({
      label: `connection for ${connection.purpose}`,
      sent: `open a new connection to ${state.target.label}`,
      received: connection.error,
    })),
  };
}

export const DISCOVER_RESULT = defineCheck(
  'discover.result',
  'lifecycle',
  'server/discover answers with the supported versions (2026-07-28 included) and capabilities',
);
export const MODERN_UNSUPPORTED = defineCheck(
  'versioning.unsupported-version',
  'lifecycle',
  'A request naming an unsupported version in _meta gets -32022 with data.supported and data.requested',
);
export const MODERN_MISSING_META = defineCheck(
  'versioning.missing-meta',
  'lifecycle',
  'A request missing the required _meta fields (protocolVersion, clientCapabilities) gets -32602',
);
export const SERVER_INFO_META = defineCheck(
  'versioning.server-info',
  'lifecycle',
  'Results carry io.modelcontextprotocol/serverInfo in _meta',
);
export const EXTENSION_KEYS = defineCheck(
  'capabilities.extension-keys',
  'capabilities',
  'Extension identifiers in capabilities.extensions follow the _meta key rules with a mandatory prefix',
);
export const MODERN_ONLY_INITIALIZE = defineCheck(
  'versioning.initialize-names-versions',
  'lifecycle',
  'A modern-only server names its supported versions in the error it returns to initialize',
);

function implementationOk(value: unknown): boolean {
  return isObject(value) && typeof value['name'] === 'string' && typeof value['version'] === 'string';
}

export const legacyHandshake: Probe = {
  lane: 'isolated',
  name: 'legacy handshake',
  eras: ['legacy'],
  fresh: () => 1,
  checks: [
    INITIALIZE_RESULT,
    VERSION_ECHO,
    VERSION_UNSUPPORTED,
    VERSION_LATEST,
    VERSION_MALFORMED,
    BEFORE_INITIALIZE,
    PING_BEFORE_INITIALIZE,
    QUIET_UNTIL_INITIALIZED,
  ],
  async run(ctx) {
    const { discovery, revision } = ctx;
    const call = discovery.initialize.get(revision);
    if (call === undefined) {
      ctx.fail(INITIALIZE_RESULT, 'the server could not be started to initialize', []);
    } else {
      ctx.schema.response(call, 'initialize');
      const result = resultOf(call);
      const evidence = [callEvidence(call, `initialize ${revision}`)];
      if (result === undefined) {
        ctx.fail(
          INITIALIZE_RESULT,
          `initialize was not answered with a result: ${isResult(call).detail}`,
          evidence,
        );
      } else {
        const problems: string[] = [];
        if (typeof result['protocolVersion'] !== 'string') problems.push('protocolVersion is not a string');
        if (!isObject(result['capabilities'])) problems.push('capabilities is not an object');
        if (!implementationOk(result['serverInfo']))
          problems.push('serverInfo lacks a string name and version');
        ctx.expect(
          INITIALIZE_RESULT,
          problems.length === 0,
          `protocolVersion ${brief(result['protocolVersion'])}, capabilities and serverInfo present`,
          problems.join('; '),
          evidence,
        );
      }
      const answered = result?.['protocolVersion'];
      const claimed = discovery.discoverResult?.['supportedVersions'];
      if (answered === revision) {
        ctx.pass(VERSION_ECHO, `initialize ${revision} was answered with ${revision}`, evidence);
      } else if (Array.isArray(claimed) && claimed.includes(revision)) {
        ctx.fail(
          VERSION_ECHO,
          `server/discover lists ${revision} as supported, but initialize ${revision} was answered with ${brief(answered)}`,
          evidence,
        );
      }
    }

    const unsupported = discovery.unsupported;
    if (unsupported === undefined) {
      ctx.notRun(VERSION_UNSUPPORTED, 'the server could not be started for this exchange');
      ctx.notRun(VERSION_LATEST, 'the server could not be started for this exchange');
    } else {
      ctx.schema.response(unsupported, 'initialize');
      const evidence = [callEvidence(unsupported, `initialize with ${UNSUPPORTED_VERSION}`)];
      const offered = resultOf(unsupported)?.['protocolVersion'];
      if (offered === undefined) {
        ctx.fail(
          VERSION_UNSUPPORTED,
          `expected a result offering a supported version; got ${isResult(unsupported).detail}`,
          evidence,
        );
        ctx.notRun(VERSION_LATEST, 'no version was offered');
      } else {
        const supported = discovery.legacy as readonly unknown[];
        ctx.expect(
          VERSION_UNSUPPORTED,
          supported.includes(offered),
          `answered with ${brief(offered)}, a version it negotiates`,
          `answered with ${brief(offered)}, which the server does not negotiate (it negotiates ${supported.join(', ') || 'none'})`,
          evidence,
        );
        const latest = [...discovery.legacy].sort().at(-1);
        ctx.expect(
          VERSION_LATEST,
          offered === latest,
          `offered ${brief(offered)}, the latest legacy revision it negotiates`,
          `offered ${brief(offered)}, but the latest legacy revision it negotiates is ${latest ?? 'none'}`,
          evidence,
        );
      }
    }

    // One uninitialized connection goes through the malformed initialize, a request and a ping before the
    // handshake, the handshake itself, and a quiet moment before `initialized`. A server that accepts the
    // malformed initialize gets a fresh connection for the rest, so one failure does not spill into the others.
    let channel = await ctx.open();
    const malformed = await channel.call(initializeRequest(channel, Number(revision.replace(/-/g, ''))), {
      timeoutMs: ctx.settings.requestTimeoutMs,
    });
    ctx.schema.response(malformed, 'initialize');
    const judgement = isError(malformed, -32602);
    ctx.expect(
      VERSION_MALFORMED,
      judgement.ok,
      judgement.detail,
      judgement.detail,
      [callEvidence(malformed, 'initialize with a numeric protocolVersion')],
      rejectionFacets(malformed),
    );
    // Rejected with any error, the connection is still uninitialized and serves the rest; accepted (or left
    // unanswered), it is not: the rest goes to a fresh one. (Each fresh process costs a server start, seconds
    // for heavy servers.)
    if (malformed.response === undefined || resultOf(malformed) !== undefined) channel = await ctx.open();
    if (channel.kind === 'streamable-http') {
      // Without a session, HTTP requests are governed by the session rules (http.session-required).
      const reason =
        'on Streamable HTTP a request before initialize has no session; the session checks cover it';
      ctx.notApplicable(BEFORE_INITIALIZE, reason);
      ctx.notApplicable(PING_BEFORE_INITIALIZE, reason);
      ctx.notApplicable(
        QUIET_UNTIL_INITIALIZED,
        'judged on stdio and HTTP+SSE, where a connection outlives the handshake',
      );
      return;
    }

    const early = await channel.call(
      { jsonrpc: '2.0', id: channel.nextId(), method: 'tools/list' },
      {
        timeoutMs: ctx.settings.requestTimeoutMs,
      },
    );
    ctx.schema.messages(early.during);
    if (early.failure === 'closed') channel = await ctx.open();
    const ping = await channel.call(
      { jsonrpc: '2.0', id: channel.nextId(), method: 'ping' },
      {
        timeoutMs: ctx.settings.requestTimeoutMs,
      },
    );
    ctx.schema.response(ping, 'ping');
    const pingResult = resultOf(ping);
    ctx.expect(
      PING_BEFORE_INITIALIZE,
      pingResult !== undefined && Object.keys(pingResult).every((key) => key === '_meta'),
      'ping answered with an empty result',
      `ping before initialize: ${pingResult === undefined ? isResult(ping).detail : `non-empty result ${brief(pingResult)}`}`,
      [callEvidence(ping, 'ping before initialize')],
    );
    if (ping.failure === 'closed') channel = await ctx.open();

    const init = await channel.call(initializeRequest(channel, revision), {
      timeoutMs: ctx.settings.requestTimeoutMs,
    });
    ctx.schema.response(init, 'initialize');
    const evidence = [
      callEvidence(early, 'tools/list before initialize'),
      callEvidence(init, 'initialize afterwards'),
    ];
    const initialized = resultOf(init)?.['protocolVersion'] === revision;
    if (early.response === undefined) {
      ctx.fail(BEFORE_INITIALIZE, `the request before initialize got ${missing(early)}`, evidence);
    } else {
      ctx.expect(
        BEFORE_INITIALIZE,
        initialized,
        `answered (${errorCode(early) === undefined ? 'a result' : `error ${errorCode(early)}`}), and initialize still succeeded`,
        `the request was answered, but initialize afterwards failed: ${isResult(init).detail}`,
        evidence,
      );
    }
    if (!initialized) {
      ctx.notRun(QUIET_UNTIL_INITIALIZED, 'initialize failed on this connection', [callEvidence(init)]);
      return;
    }
    // Give the server a moment in which it must not send requests; count from the initialize result on, since
    // what was written right behind it may have been delivered before this line runs.
    await channel.collect(300);
    const from = channel.received.findIndex((r) => r.message === init.response);
    const quiet = from === -1 ? [] : channel.received.slice(from + 1);
    const requests = quiet.filter(
      (r) =>
        isObject(r.message) &&
        typeof r.message['method'] === 'string' &&
        'id' in r.message &&
        r.message['method'] !== 'ping',
    );
    ctx.expect(
      QUIET_UNTIL_INITIALIZED,
      requests.length === 0,
      'no request arrived between the initialize result and the initialized notification',
      `the server sent ${requests.map((r) => brief((r.message as JsonObject)['method'])).join(', ')} before initialized`,
      quiet.length === 0 ? [] : [messagesEvidence(quiet, 'messages before initialized')],
    );
    // A session like any other from here on: the robustness lane takes it (no second server start).
    const handoff = ctx.state.handoff;
    if (handoff !== undefined && channel.alive()) {
      await LegacySession.adopt(channel, revision, init);
      ctx.keep(channel);
      handoff.give(channel);
    }
  },
};

export const legacySessionBasics: Probe = {
  name: 'ping and notifications',
  eras: ['legacy'],
  checks: [PING, NOTIFICATION_UNANSWERED],
  async run(ctx) {
    const ping = await ctx.rpc('ping');
    const result = resultOf(ping);
    if (result === undefined) ctx.fail(PING, isResult(ping).detail, [callEvidence(ping, 'ping')]);
    else if (!Object.keys(result).every((key) => key === '_meta'))
      ctx.fail(PING, `non-empty result ${brief(result)}`, [callEvidence(ping, 'ping')]);
    else await judgePrompt(ctx, ping);
    const session = await ctx.session();
    if (session === undefined) return;
    const channel = session.channel;
    await channel.send(notification('notifications/validator-unknown', { note: 'an unknown notification' }));
    await channel.send(notification('notifications/initialized'));
    const probe = await session.request('ping', undefined, { timeoutMs: ctx.settings.requestTimeoutMs });
    judgeNotificationsUnanswered(ctx, channel, probe.during, probe, {
      pass: 'no response to an unknown notification nor to a repeated notifications/initialized',
      next: 'ping',
      evidence: 'ping after two notifications',
    });
  },
};

/** A slow ping must be this many times slower than the server's answer to a request that needs no work. */
const PING_SLOWER_THAN_BASELINE = 3;

/**
 * "The receiver MUST respond promptly" (ping): the spec gives no number, and a loaded machine (or a validator
 * busy starting processes) slows every answer, not just pings. An empty result within the bound
 * (`--ping-bound`, default 2000 ms) is prompt. A slower one is measured again at once: a request that needs no
 * work from any server (an unknown method, answered -32601) gives the baseline of the moment, and a second ping
 * follows it. The ping is late only when that second ping is over the bound too *and* more than three times
 * slower than the baseline: a server that holds pings back fails; a machine that slows everything, or a
 * one-off stall, does not (interpretations.md, "A ping answered promptly").
 */
async function judgePrompt(ctx: ProbeContext, ping: CallResult): Promise<void> {
  const bound = ctx.settings.pingBoundMs ?? DEFAULT_PING_BOUND_MS;
  if (ping.elapsedMs <= bound) {
    ctx.pass(PING, `empty result in ${ping.elapsedMs} ms`, [callEvidence(ping, 'ping')]);
    return;
  }
  const baseline = await ctx.rpc('validator/no-such-method', {});
  const again = await ctx.rpc('ping');
  const evidence = [
    callEvidence(ping, 'ping'),
    callEvidence(baseline, 'an unknown method right after (the baseline)'),
    callEvidence(again, 'a second ping'),
  ];
  const baselineMs = baseline.response === undefined ? undefined : baseline.elapsedMs;
  const againOk = resultOf(again) !== undefined;
  const late =
    !againOk ||
    (again.elapsedMs > bound &&
      baselineMs !== undefined &&
      again.elapsedMs > PING_SLOWER_THAN_BASELINE * baselineMs);
  const measured = `the first ping took ${ping.elapsedMs} ms (bound ${bound} ms), a second ${againOk ? `${again.elapsedMs} ms` : `got ${isResult(again).detail}`}, an unknown method ${baselineMs === undefined ? 'got no answer' : `${baselineMs} ms`}`;
  ctx.expect(
    PING,
    !late,
    `empty result; ${measured}: not slower than the server's other answers of the moment`,
    `ping answered late: ${measured}`,
    evidence,
  );
}

/**
 * Judges NOTIFICATION_UNANSWERED after notifications were sent on `channel`: nothing in `received` answers one
 * (a response to a notification cannot carry an id the validator sent; other requests may be in flight), and
 * `next`, the request sent after them, got its own response.
 */
function judgeNotificationsUnanswered(
  ctx: ProbeContext,
  channel: Channel,
  received: readonly Received[],
  next: CallResult,
  texts: { pass: string; next: string; evidence: string },
): void {
  const stray = received.filter(
    (r) =>
      isObject(r.message) &&
      !('method' in r.message) &&
      ('result' in r.message || 'error' in r.message) &&
      !channel.sentIds.has(r.message['id']),
  );
  ctx.expect(
    NOTIFICATION_UNANSWERED,
    stray.length === 0 && next.response !== undefined,
    texts.pass,
    stray.length > 0
      ? `the server answered a notification: ${brief(stray[0]!.text)}`
      : `the following ${texts.next} got ${missing(next)}`,
    [callEvidence(next, texts.evidence)],
  );
}

/** Runs last: judges every request the server sent during the revision's probes. */
export const negotiatedCapabilities: Probe = {
  name: 'negotiated capabilities',
  eras: ['legacy', 'modern'],
  checks: [NEGOTIATED_CAPABILITIES, UNDECLARED_NOTIFICATIONS],
  run(ctx) {
    if (ctx.era === 'legacy') judgeUndeclaredNotifications(ctx);
    else
      ctx.notApplicable(
        UNDECLARED_NOTIFICATIONS,
        'in 2026-07-28 change notifications arrive only on a subscriptions/listen stream (judged there)',
      );
    const requests = ctx.state.serverRequests.filter((request) => request['method'] !== 'ping');
    if (requests.length === 0) {
      ctx.pass(
        NEGOTIATED_CAPABILITIES,
        'the server sent no request needing a client capability (none were declared)',
      );
    } else {
      ctx.fail(
        NEGOTIATED_CAPABILITIES,
        `the server sent ${[...new Set(requests.map((r) => String(r['method'])))].join(', ')} although the validator declared no client capabilities`,
        [
          {
            label: 'requests from the server',
            received: requests
              .map((r) => JSON.stringify(r))
              .join('\n')
              .slice(0, 4000),
          },
        ],
        requests.flatMap(clientCapabilityFacets),
      );
    }
    return Promise.resolve();
  },
};

/**
 * Lifecycle (legacy revisions): "Both parties MUST: Only use capabilities that were successfully negotiated".
 * A notification the server sends for a capability it did not declare (`notifications/tools/list_changed`
 * without `tools.listChanged`, often right after `notifications/initialized`) breaks it.
 */
function judgeUndeclaredNotifications(ctx: ProbeContext): void {
  const notifications = ctx.state.channels.flatMap((channel) =>
    channel.received.filter(
      (r) => isObject(r.message) && typeof r.message['method'] === 'string' && !('id' in r.message),
    ),
  );
  const undeclared = notifications.filter((r) => {
    const needed = NOTIFICATION_CAPABILITY[String((r.message as JsonObject)['method'])];
    return needed !== undefined && !ctx.has(needed);
  });
  const methods = [...new Set(undeclared.map((r) => String((r.message as JsonObject)['method'])))];
  ctx.expect(
    UNDECLARED_NOTIFICATIONS,
    undeclared.length === 0,
    `${notifications.length} notification(s) from the server, each of a declared capability`,
    methods
      .map((method) => `${method} sent without the ${NOTIFICATION_CAPABILITY[method]} capability`)
      .join('; '),
    [{ label: 'notifications from the server', received: undeclared.map((r) => r.text).join('\n') }],
  );
}

export const modernHandshake: Probe = {
  name: 'server/discover and per-request versions',
  eras: ['modern'],
  checks: [
    DISCOVER_RESULT,
    MODERN_UNSUPPORTED,
    SERVER_INFO_META,
    MODERN_ONLY_INITIALIZE,
    CACHING_HINTS,
    EXTENSION_KEYS,
    NOTIFICATION_UNANSWERED,
  ],
  async run(ctx) {
    const { discovery } = ctx;
    const call = discovery.discover;
    if (discovery.modernWithoutDiscover && call !== undefined && discovery.modernProbe !== undefined) {
      // It answers 2026-07-28 requests, so "Servers MUST implement server/discover" binds it. Without a
      // DiscoverResult the validator knows neither its capabilities nor its versions: the rest waits.
      ctx.fail(
        DISCOVER_RESULT,
        `the server answers 2026-07-28 requests (tools/list came back with resultType ${brief(resultOf(discovery.modernProbe)?.['resultType'])}) but not server/discover: ${isResult(call).detail}`,
        [
          callEvidence(call, 'server/discover'),
          callEvidence(discovery.modernProbe, 'tools/list with the 2026-07-28 _meta'),
        ],
      );
      for (const check of modernHandshake.checks)
        if (check !== DISCOVER_RESULT) ctx.notRun(check, 'the server does not implement server/discover');
      return;
    }
    if (call === undefined) {
      ctx.fail(DISCOVER_RESULT, 'server/discover could not be sent');
    } else {
      ctx.schema.response(call, 'server/discover');
      judgeCaching(ctx, call, 'server/discover');
      const result = resultOf(call);
      const versions = result?.['supportedVersions'];
      const problems: string[] = [];
      if (result === undefined) problems.push(isResult(call).detail);
      else {
        if (!Array.isArray(versions) || !versions.includes(MODERN_REVISION))
          problems.push(`supportedVersions ${brief(versions)} does not include ${MODERN_REVISION}`);
        if (!isObject(result['capabilities'])) problems.push('capabilities is not an object');
      }
      ctx.expect(
        DISCOVER_RESULT,
        problems.length === 0,
        `supportedVersions ${brief(versions)}`,
        problems.join('; '),
        [callEvidence(call, 'server/discover')],
      );
      const capabilities = isObject(result?.['capabilities']) ? (result['capabilities'] as JsonObject) : {};
      const extensions = isObject(capabilities['extensions'])
        ? Object.keys(capabilities['extensions'])
        : undefined;
      if (extensions === undefined || extensions.length === 0)
        ctx.notApplicable(EXTENSION_KEYS, 'the server declares no extensions');
      else {
        const bad = extensions.filter((key) => !key.includes('/') || !META_KEY.test(key));
        ctx.expect(
          EXTENSION_KEYS,
          bad.length === 0,
          `extensions ${brief(extensions)}`,
          `extension identifiers without a valid prefix: ${bad.join(', ')}`,
          [callEvidence(call, 'server/discover')],
        );
      }
      const meta = isObject(result?.['_meta']) ? (result['_meta'] as JsonObject) : {};
      ctx.expect(
        SERVER_INFO_META,
        implementationOk(meta[META.serverInfo]),
        `serverInfo ${brief(meta[META.serverInfo])}`,
        `the server/discover result has no ${META.serverInfo} (name and version) in _meta`,
        [callEvidence(call, 'server/discover')],
      );
    }

    const channel = await ctx.modernChannel();
    const wrong = await ctx.modern(channel, 'server/discover', {}, { protocolVersion: UNSUPPORTED_VERSION });
    {
      const judgement = isError(wrong, -32022);
      const data = isObject(wrong.response?.['error'])
        ? (wrong.response['error'] as JsonObject)['data']
        : undefined;
      const problems: string[] = judgement.ok ? [] : [judgement.detail];
      if (judgement.ok) {
        if (
          !isObject(data) ||
          !Array.isArray(data['supported']) ||
          !data['supported'].includes(MODERN_REVISION)
        ) {
          problems.push(`data.supported does not list ${MODERN_REVISION}: ${brief(data)}`);
        } else if (data['requested'] !== UNSUPPORTED_VERSION) {
          problems.push(`data.requested is ${brief(data['requested'])}, not ${UNSUPPORTED_VERSION}`);
        }
      }
      ctx.expect(
        MODERN_UNSUPPORTED,
        problems.length === 0,
        `-32022 listing ${brief(isObject(data) ? data['supported'] : undefined)}`,
        problems.join('; '),
        [callEvidence(wrong, `server/discover with protocolVersion ${UNSUPPORTED_VERSION}`)],
      );
    }

    {
      // A notification gets no answer; a request sent right after it gets exactly its own.
      const note = await channel.send(
        notification('notifications/validator-unknown', { note: 'an unknown notification' }),
        {
          headers: { 'mcp-protocol-version': ctx.revision, 'mcp-method': 'notifications/validator-unknown' },
        },
      );
      const after = await ctx.modern(channel, 'server/discover');
      judgeNotificationsUnanswered(ctx, channel, [...note.received, ...after.during], after, {
        pass: 'no response to an unknown notification',
        next: 'request',
        evidence: 'server/discover after an unknown notification',
      });
    }

    if (discovery.legacy.length > 0) {
      ctx.notApplicable(
        MODERN_ONLY_INITIALIZE,
        'the server also speaks legacy revisions, so it accepts initialize',
      );
    } else {
      const init = discovery.initialize.get(LEGACY_REVISIONS.at(-1)!);
      if (init === undefined || init.response === undefined) {
        ctx.notRun(MODERN_ONLY_INITIALIZE, 'initialize got no response to judge');
      } else {
        const text = JSON.stringify(init.response['error'] ?? '');
        ctx.expect(
          MODERN_ONLY_INITIALIZE,
          text.includes(MODERN_REVISION),
          `the initialize error names ${MODERN_REVISION}`,
          `the initialize error does not name the supported version ${MODERN_REVISION}`,
          [callEvidence(init, 'initialize on a modern-only server')],
        );
      }
    }
  },
};

/**
 * 2026-07-28: requests missing the required `_meta` fields. Apart from the handshake probe, which runs alone
 * before the lanes: on stdio each variant goes to a process of its own, and those starts need not hold the
 * other lanes back.
 */
export const modernMissingMeta: Probe = {
  lane: 'isolated',
  name: 'requests without the required _meta',
  eras: ['modern'],
  checks: [MODERN_MISSING_META],
  fresh: (state) => (state.discovery.legacy.length > 0 ? 1 : 3),
  async run(ctx) {
    // A request without a protocol version in _meta is, to a server that also speaks the legacy era, a legacy
    // request before initialize: legacy servers answer those "with implementation-defined errors (commonly
    // -32601 or -32602) or not at all" (2026-07-28 basic/transports/stdio#backward-compatibility), so only a
    // modern-only server is held to -32602 for them (interpretations.md, "stdio 2026-07-28 probes without
    // _meta"). Such a request may also lock a dual-era stdio stream into the legacy era: on stdio each variant
    // goes to a process of its own, never to the shared one.
    const dualEra = ctx.discovery.legacy.length > 0;
    const variants: { label: string; versionless: boolean; message: (c: Channel) => JsonObject }[] = [
      {
        label: 'no _meta',
        versionless: true,
        message: (c) => ({ jsonrpc: '2.0', id: c.nextId(), method: 'server/discover', params: {} }),
      },
      {
        label: 'no clientCapabilities',
        versionless: false,
        message: (c) =>
          modernRequest(c, ctx.revision, 'server/discover', {}, { omitMeta: [META.clientCapabilities] }),
      },
      {
        label: 'no protocolVersion',
        versionless: true,
        message: (c) =>
          modernRequest(c, ctx.revision, 'server/discover', {}, { omitMeta: [META.protocolVersion] }),
      },
    ];
    const judged = variants.filter((variant) => !(dualEra && variant.versionless));
    const calls = await Promise.all(
      judged.map(async ({ message }) => {
        const own = ctx.target.kind === 'stdio' ? await ctx.open() : await ctx.modernChannel();
        // On HTTP the mirrored headers still name the version, so that only the body is malformed.
        return own.call(message(own), {
          timeoutMs: ctx.settings.requestTimeoutMs,
          headers: { 'mcp-protocol-version': ctx.revision, 'mcp-method': 'server/discover' },
        });
      }),
    );
    judged.forEach(({ label }, index) => {
      const call = calls[index]!;
      ctx.schema.response(call, 'server/discover');
      const judgement = isError(call, -32602);
      ctx.judge(MODERN_MISSING_META, judgement, [callEvidence(call, `server/discover with ${label}`)], label);
    });
  },
};
