/**
 * The official TypeScript SDK v2 client (`@modelcontextprotocol/client`, which speaks 2026-07-28) drives our
 * everything server in the modern era: server/discover, per-request `_meta`, multi-round-trip `input_required`
 * results answered through the SDK's own request handlers, and `subscriptions/listen`. One body of tests, run
 * over stdio and over Streamable HTTP by the `sdk-v2-*.test.ts` files.
 *
 * Every message our server sends is validated against the official 2026-07-28 schema.
 */
import {
  Client,
  LOG_LEVEL_META_KEY,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ResourceNotFoundError,
  SdkError,
  type ClientCapabilities,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/client';
import { WireTap } from '@mcpengine/oracle';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLIENT_ROOTS,
  comparable,
  elicitationAnswer,
  EXPECTED_CALLS,
  EXPECTED_PROMPT_NAMES,
  EXPECTED_PROMPTS,
  EXPECTED_RESOURCES,
  EXPECTED_TEMPLATES,
  PNG_1X1_BASE64,
  SAMPLED_TEXT,
  SAMPLING_REPLY,
  SERVER_INSTRUCTIONS,
  SERVER_NAME,
  SERVER_VERSION,
  STATEFUL_TOOLS,
  STATIC_TEXT,
  TASK_REQUIRED_TOOLS,
} from './everything-expected.js';
import type { HttpLog } from './everything-http.js';
import {
  connectSession,
  finishSession,
  freshSessions,
  textOf,
  type OpenedSdkTransport,
} from './sdk-session.js';
import { TappedSdkTransport, type WireMessage } from './tapped-sdk-transport.js';

export const MODERN = '2026-07-28';
const SERVER_INFO = {
  name: SERVER_NAME,
  title: 'MCPEngine everything server',
  version: SERVER_VERSION,
  description: 'Reference server exposing every conformance fixture and the engine showcase',
};
const CAPABILITIES = {
  logging: {},
  completions: {},
  prompts: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  tools: { listChanged: true },
  extensions: { 'io.modelcontextprotocol/tasks': {}, 'io.modelcontextprotocol/ui': {} },
};
const ALL_INPUTS: ClientCapabilities = { sampling: {}, elicitation: {}, roots: {} };

export type OpenedSdkV2Transport = OpenedSdkTransport<Transport>;

export interface SdkV2TransportProfile {
  /** For test titles: "stdio", "Streamable HTTP". */
  readonly name: string;
  /**
   * Returns an SDK transport to a server for one session. With `ownServer` the session gets a server of its own:
   * its test changes server-wide state (the tool and prompt lists, a resource's version) or expects it as
   * started. Otherwise the profile may share one server among sessions (stdio never does).
   */
  open(options: { ownServer: boolean }): Promise<OpenedSdkV2Transport>;
  /**
   * How the client cancels a request: stdio sends `notifications/cancelled`; over Streamable HTTP closing the
   * request's response stream is the cancellation (2026-07-28, Cancellation), and nothing is sent.
   */
  readonly cancellation: 'notification' | 'close-stream';
  /**
   * Everything the server sends arrives on one ordered channel (stdio). Over Streamable HTTP each request,
   * subscriptions included, has its own response stream, so messages on different streams may arrive in any
   * order.
   */
  readonly ordered: boolean;
}

export type SdkV2Transport = TappedSdkTransport<JSONRPCMessage, MessageExtraInfo, TransportSendOptions>;

export interface SdkV2Session {
  client: Client;
  transport: SdkV2Transport;
  tap: WireTap;
  http: HttpLog | undefined;
  /** Closes the client, then stops the server of the session. */
  close(): Promise<void>;
}

export interface SdkV2ConnectOptions {
  /** A server of the session's own (see `SdkV2TransportProfile.open`). */
  ownServer?: boolean;
  capabilities?: ClientCapabilities;
  negotiation?: 'auto' | 'pin';
  listChanged?: ConstructorParameters<typeof Client>[1] extends infer O
    ? O extends { listChanged?: infer L }
      ? L
      : never
    : never;
}

export async function connectSdkV2(
  profile: SdkV2TransportProfile,
  options: SdkV2ConnectOptions = {},
): Promise<SdkV2Session> {
  const tap = new WireTap({ validate: ['server'] });
  const opened = await profile.open({ ownServer: options.ownServer ?? false });
  const transport: SdkV2Transport = new TappedSdkTransport(opened.transport, tap);
  const capabilities = options.capabilities ?? ALL_INPUTS;
  const client = new Client(
    { name: 'sdk-v2-interop', version: '2.0.0' },
    {
      capabilities,
      versionNegotiation: { mode: options.negotiation === 'auto' ? 'auto' : { pin: MODERN } },
      ...(options.listChanged && { listChanged: options.listChanged }),
    },
  );
  if (capabilities.sampling) client.setRequestHandler('sampling/createMessage', () => SAMPLING_REPLY);
  if (capabilities.elicitation) {
    client.setRequestHandler('elicitation/create', (request) => elicitationAnswer(request.params.message));
  }
  if (capabilities.roots) client.setRequestHandler('roots/list', () => ({ roots: CLIENT_ROOTS }));
  const close = await connectSession(client, transport, opened);
  return { client, transport, tap, http: opened.http, close };
}

/** Closes the session and checks that everything our server sent was valid. */
export const finishSdkV2: (session: SdkV2Session) => Promise<void> = finishSession;

/** The `tools/call` (or other) exchanges on the wire, request and result, from `from` on. */
function rounds(transport: SdkV2Transport, method: string, from = 0): { params: any; result: any }[] {
  return transport.sent
    .slice(from)
    .filter((m) => m['method'] === method && m['id'] !== undefined)
    .map((request) => ({
      params: request['params'],
      result: transport.received.find((m) => m['id'] === request['id'])?.['result'],
    }));
}

export function describeSdkV2Client(profile: SdkV2TransportProfile): void {
  const connect = (options?: SdkV2ConnectOptions) => connectSdkV2(profile, options);
  const fresh = freshSessions(connect);

  describe(`official SDK v2 client → our everything server over ${profile.name} (modern era, 2026-07-28)`, () => {
    let session: SdkV2Session;
    beforeAll(async () => {
      session = await connect();
    });
    afterAll(async () => {
      await finishSdkV2(session);
    });

    it('connects with server/discover only (no initialize) and reads our identity and capabilities', () => {
      const { client, transport, tap } = session;
      expect(transport.sent[0]?.['method']).toBe('server/discover');
      expect(transport.sentWithMethod('initialize')).toEqual([]);
      expect(tap.revision).toBe(MODERN);
      expect(client.getProtocolEra()).toBe('modern');
      expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
      expect(client.getServerVersion()).toEqual(SERVER_INFO);
      expect(client.getServerCapabilities()).toEqual(CAPABILITIES);
      expect(client.getInstructions()).toBe(SERVER_INSTRUCTIONS);
      expect(client.getDiscoverResult()?.supportedVersions).toEqual([
        '2026-07-28',
        '2025-11-25',
        '2025-06-18',
        '2025-03-26',
        '2024-11-05',
      ]);
      const discover = transport.received[0]?.['result'] as Record<string, unknown>;
      expect(discover['resultType']).toBe('complete');
      expect([discover['ttlMs'], discover['cacheScope']]).toEqual([300_000, 'public']);
    });

    it('answers an explicit server/discover with the same capabilities', async () => {
      const before = session.transport.sentWithMethod('server/discover').length;
      const result = await session.client.discover();
      expect(result.capabilities).toEqual(CAPABILITIES);
      expect(result.instructions).toBe(SERVER_INSTRUCTIONS);
      expect(session.transport.sentWithMethod('server/discover')).toHaveLength(before + 1);
    });

    it('lists every tool with a description; a second listTools is served from the ttlMs cache', async () => {
      const before = session.transport.sentWithMethod('tools/list').length;
      const { tools } = await session.client.listTools();
      for (const tool of tools) expect(tool.description, tool.name).toMatch(/\S/);
      expect(tools.map((t) => t.name).sort()).toEqual(
        [...Object.keys(EXPECTED_CALLS), ...STATEFUL_TOOLS, ...TASK_REQUIRED_TOOLS].sort(),
      );
      const [page] = rounds(session.transport, 'tools/list').slice(before);
      // Private: the list depends on the caller (the MCP App's app-only tool is listed only to Apps clients).
      expect([page?.result.ttlMs, page?.result.cacheScope, page?.result.resultType]).toEqual([
        60_000,
        'private',
        'complete',
      ]);
      const again = await session.client.listTools();
      expect(again.tools.map((t) => t.name)).toEqual(tools.map((t) => t.name));
      expect(session.transport.sentWithMethod('tools/list')).toHaveLength(before + 1);
    });

    for (const [name, call] of Object.entries(EXPECTED_CALLS)) {
      it(`calls ${name} and gets its exact result`, async () => {
        const result = await session.client.callTool({ name, arguments: call.arguments ?? {} });
        expect(comparable(result)).toEqual(call.result);
        expect(result._meta?.['io.modelcontextprotocol/serverInfo']).toEqual(SERVER_INFO);
      });
    }

    it('MRTR elicitation: input_required with key user_name, then a retry carrying the answer and requestState', async () => {
      const from = session.transport.sent.length;
      await session.client.callTool({ name: 'test_input_required_result_elicitation', arguments: {} });
      const [first, second, ...more] = rounds(session.transport, 'tools/call', from);
      expect(more).toEqual([]);
      expect(first?.result.resultType).toBe('input_required');
      expect(first?.result.inputRequests).toEqual({
        user_name: {
          method: 'elicitation/create',
          params: {
            message: 'What is your name?',
            requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          },
        },
      });
      expect(typeof first?.result.requestState).toBe('string');
      expect(second?.params.inputResponses).toEqual({
        user_name: { action: 'accept', content: { name: 'Alice' } },
      });
      expect(second?.params.requestState).toBe(first?.result.requestState);
      expect(second?.result.resultType).toBe('complete');
    });

    it('MRTR sampling and roots: keys capital_question and client_roots', async () => {
      const from = session.transport.sent.length;
      await session.client.callTool({ name: 'test_input_required_result_sampling', arguments: {} });
      await session.client.callTool({ name: 'test_input_required_result_list_roots', arguments: {} });
      const [sampling, , roots] = rounds(session.transport, 'tools/call', from);
      expect(sampling?.result.inputRequests).toEqual({
        capital_question: {
          method: 'sampling/createMessage',
          params: {
            messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
            maxTokens: 100,
          },
        },
      });
      expect(roots?.result.inputRequests).toEqual({ client_roots: { method: 'roots/list' } });
    });

    it('MRTR multiple inputs: one round asks for elicitation, sampling and roots together', async () => {
      const from = session.transport.sent.length;
      const result = await session.client.callTool({
        name: 'test_input_required_result_multiple_inputs',
        arguments: {},
      });
      expect(textOf(result)).toBe(`${SAMPLED_TEXT} Alice (roots: 1)`);
      const [first, second, ...more] = rounds(session.transport, 'tools/call', from);
      expect(more).toEqual([]);
      const asks = first?.result.inputRequests as Record<string, { method: string }>;
      expect(Object.entries(asks).map(([key, request]) => [key, request.method])).toEqual([
        ['user_name', 'elicitation/create'],
        ['greeting', 'sampling/createMessage'],
        ['client_roots', 'roots/list'],
      ]);
      expect(second?.params.inputResponses).toEqual({
        user_name: { action: 'accept', content: { name: 'Alice' } },
        greeting: SAMPLING_REPLY,
        client_roots: { roots: CLIENT_ROOTS },
      });
    });

    it('MRTR multi-round: two input_required rounds with different requestState, then complete', async () => {
      const from = session.transport.sent.length;
      await session.client.callTool({ name: 'test_input_required_result_multi_round', arguments: {} });
      const [r1, r2, r3, ...more] = rounds(session.transport, 'tools/call', from);
      expect(more).toEqual([]);
      expect(Object.keys(r1?.result.inputRequests)).toEqual(['step1']);
      expect(Object.keys(r2?.result.inputRequests)).toEqual(['step2']);
      expect(r2?.params.requestState).toBe(r1?.result.requestState);
      expect(r2?.result.requestState).not.toBe(r1?.result.requestState);
      expect(r3?.params.requestState).toBe(r2?.result.requestState);
      expect(r3?.params.inputResponses).toEqual({ step2: { action: 'accept', content: { color: 'blue' } } });
      expect(r3?.result.content).toEqual([{ type: 'text', text: 'Alice likes blue' }]);
    });

    it('MRTR on prompts/get: test_input_required_result_prompt asks for user_context, then returns messages', async () => {
      const from = session.transport.sent.length;
      const result = await session.client.getPrompt({ name: 'test_input_required_result_prompt' });
      expect(result.messages).toEqual(EXPECTED_PROMPTS['test_input_required_result_prompt']?.messages);
      const [first, second] = rounds(session.transport, 'prompts/get', from);
      expect(Object.keys(first?.result.inputRequests)).toEqual(['user_context']);
      expect(second?.params.inputResponses).toEqual({
        user_context: { action: 'accept', content: { context: 'test context' } },
      });
    });

    it('tools that require a task are -32021 for a client without the tasks extension', async () => {
      for (const name of TASK_REQUIRED_TOOLS) {
        const error = await session.client.callTool({ name, arguments: {} }).catch((e: unknown) => e);
        expect(error, name).toBeInstanceOf(MissingRequiredClientCapabilityError);
        expect((error as ProtocolError).code).toBe(-32021);
        expect((error as ProtocolError).data).toEqual({
          requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } },
        });
      }
    });

    it('invalid arguments are a tool error; an unknown tool is -32602', async () => {
      expect(
        comparable(await session.client.callTool({ name: 'add', arguments: { a: 'one', b: 2 } })),
      ).toEqual({
        content: [{ type: 'text', text: 'Invalid arguments for tool "add": /a must be a number' }],
        isError: true,
      });
      const error = await session.client
        .callTool({ name: 'no_such_tool', arguments: {} })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProtocolError);
      expect([(error as ProtocolError).code, (error as ProtocolError).message]).toEqual([
        -32602,
        'Unknown tool: no_such_tool',
      ]);
    });

    it('lists resources and templates and reads text, binary and templated resources', async () => {
      const { resources } = await session.client.listResources();
      expect(resources).toEqual(EXPECTED_RESOURCES);
      expect((await session.client.listResourceTemplates()).resourceTemplates).toEqual(EXPECTED_TEMPLATES);
      const text = await session.client.readResource({ uri: 'test://static-text' });
      expect(text.contents).toEqual([
        { uri: 'test://static-text', mimeType: 'text/plain', text: STATIC_TEXT },
      ]);
      // resources/read is cacheable with ttlMs 0 and private scope: never served from cache.
      expect([text['ttlMs'], text['cacheScope']]).toEqual([0, 'private']);
      const binary = await session.client.readResource({ uri: 'test://static-binary' });
      expect(binary.contents).toEqual([
        { uri: 'test://static-binary', mimeType: 'image/png', blob: PNG_1X1_BASE64 },
      ]);
      const templated = await session.client.readResource({ uri: 'test://template/123/data' });
      expect(templated.contents).toEqual([
        {
          uri: 'test://template/123/data',
          mimeType: 'application/json',
          text: '{"id":"123","templateTest":true,"data":"Data for ID: 123"}',
        },
      ]);
    });

    it('an unknown resource is -32602 with data.uri (2026-07-28 forbids -32002)', async () => {
      const error = await session.client.readResource({ uri: 'test://missing' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResourceNotFoundError);
      expect((error as ProtocolError).code).toBe(-32602);
      expect((error as ProtocolError).data).toEqual({ uri: 'test://missing' });
    });

    it('lists every prompt with a description and gets each with its arguments', async () => {
      const { prompts } = await session.client.listPrompts();
      expect(prompts.map((p) => p.name)).toEqual(EXPECTED_PROMPT_NAMES);
      for (const prompt of prompts) expect(prompt.description, prompt.name).toMatch(/\S/);
      for (const [name, expected] of Object.entries(EXPECTED_PROMPTS)) {
        const result = await session.client.getPrompt(
          expected.arguments ? { name, arguments: expected.arguments } : { name },
        );
        expect(result.messages, name).toEqual(expected.messages);
      }
    });

    it('completes prompt arguments and resource template variables', async () => {
      const prompt = await session.client.complete({
        ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
        argument: { name: 'arg1', value: 'pa' },
      });
      expect(prompt.completion).toEqual({ values: ['paris', 'park', 'party'] });
      const template = await session.client.complete({
        ref: { type: 'ref/resource', uri: 'test://template/{id}/data' },
        argument: { name: 'id', value: '4' },
      });
      expect(template.completion).toEqual({ values: ['42'] });
    });

    it('without a log level in _meta, tools send no notifications/message', async () => {
      const before = session.transport.receivedWithMethod('notifications/message').length;
      await session.client.callTool({ name: 'test_tool_with_logging', arguments: {} });
      await session.client.callTool({ name: 'test_logging_tool', arguments: {} });
      expect(session.transport.receivedWithMethod('notifications/message')).toHaveLength(before);
    });

    it('has no ping, logging/setLevel or resources/subscribe in this era: the SDK refuses them locally', async () => {
      const sent = session.transport.sent.length;
      for (const attempt of [
        () => session.client.ping(),
        () => session.client.setLoggingLevel('info'),
        () => session.client.subscribeResource({ uri: 'test://watched-resource' }),
      ]) {
        const error = await attempt().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(SdkError);
        expect((error as SdkError).code).toBe('METHOD_NOT_SUPPORTED_BY_PROTOCOL_VERSION');
      }
      expect(session.transport.sent).toHaveLength(sent);
    });
  });

  describe(`official SDK v2 client over ${profile.name}: capabilities, logging, progress, cancellation, subscriptions (a fresh session each)`, () => {
    it("'auto' negotiation probes with server/discover and settles on the modern era", async () => {
      const { client, transport } = await fresh({ negotiation: 'auto' });
      expect(client.getProtocolEra()).toBe('modern');
      expect(transport.sent.map((m) => m['method'])).toEqual(['server/discover']);
      expect(textOf(await client.callTool({ name: 'test_simple_text', arguments: {} }))).toBe(
        'This is a simple text response for testing.',
      );
    });

    it('-32021: test_missing_capability without the sampling capability', async () => {
      const { client, transport } = await fresh({ capabilities: { elicitation: {} } });
      const error = await client
        .callTool({ name: 'test_missing_capability', arguments: {} })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MissingRequiredClientCapabilityError);
      expect((error as ProtocolError).code).toBe(-32021);
      expect((error as ProtocolError).data).toEqual({ requiredCapabilities: { sampling: {} } });
      // The capability-aware fixture asks only for what was declared.
      const capable = await client.callTool({
        name: 'test_input_required_result_capabilities',
        arguments: {},
      });
      expect(textOf(capable)).toBe('Asked for 1 input(s), matching the declared capabilities');
      const [, first] = rounds(transport, 'tools/call');
      expect(Object.keys(first?.result.inputRequests)).toEqual(['user_name']);
    });

    it('SEP-1034: a client with applyDefaults fills the defaults of the form into its answer', async () => {
      const { client } = await fresh({ capabilities: { elicitation: { form: { applyDefaults: true } } } });
      client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: {} }));
      const result = await client.callTool({ name: 'test_elicitation_sep1034_defaults', arguments: {} });
      expect(textOf(result)).toBe(
        'Elicitation completed: action=accept, content=' +
          '{"name":"John Doe","age":30,"score":95.5,"status":"active","verified":true}',
      );
    });

    it('per-request logging: the _meta log level selects which notifications/message are sent', async () => {
      const { client, transport } = await fresh();
      const logs: unknown[] = [];
      client.setNotificationHandler('notifications/message', (n) => {
        logs.push(n.params);
      });
      await client.callTool({
        name: 'test_tool_with_logging',
        arguments: {},
        _meta: { [LOG_LEVEL_META_KEY]: 'info' },
      });
      expect(logs.splice(0)).toEqual([
        { level: 'info', data: 'Tool execution started' },
        { level: 'info', data: 'Tool processing data' },
        { level: 'info', data: 'Tool execution completed' },
      ]);
      await client.callTool({
        name: 'test_logging_tool',
        arguments: {},
        _meta: { [LOG_LEVEL_META_KEY]: 'warning' },
      });
      await client.callTool({
        name: 'test_logging_tool',
        arguments: {},
        _meta: { [LOG_LEVEL_META_KEY]: 'debug' },
      });
      expect(logs).toEqual([{ level: 'info', data: 'test_logging_tool ran' }]);
      expect(transport.receivedWithMethod('notifications/message')).toHaveLength(4);
    });

    it('progress: 0, 50 and 100 of 100 on the wire, echoing the token, before the result', async () => {
      const { client, transport } = await fresh();
      const progress: unknown[] = [];
      const result = await client.callTool(
        { name: 'test_tool_with_progress', arguments: {} },
        { onprogress: (p) => progress.push(p) },
      );
      expect(textOf(result)).toBe('Progress tool completed');
      const [call] = transport.sentWithMethod('tools/call');
      const token = (call?.['params'] as { _meta: Record<string, unknown> })._meta['progressToken'];
      const resultIndex = transport.received.findIndex((m) => m['id'] === call?.['id']);
      const expected = [
        { progress: 0, total: 100, message: 'Starting' },
        { progress: 50, total: 100, message: 'Halfway' },
        { progress: 100, total: 100, message: 'Done' },
      ];
      expect(
        transport.received
          .slice(0, resultIndex)
          .filter((m) => m['method'] === 'notifications/progress')
          .map((m) => m['params']),
      ).toEqual(expected.map((p) => ({ progressToken: token, ...p })));
      // Like v1, the SDK may drop the last notification when it shares a read with the result (SDK race).
      expect(progress.length).toBeGreaterThanOrEqual(2);
      expect(progress).toEqual(expected.slice(0, progress.length));
    });

    it('cancellation: aborting long_running_operation stops it; later calls still work', async () => {
      const { client, transport, http } = await fresh();
      const controller = new AbortController();
      const running = client.callTool(
        { name: 'long_running_operation', arguments: { durationMs: 10_000, steps: 100 } },
        { signal: controller.signal, onprogress: () => controller.abort('user gave up') },
      );
      await expect(running).rejects.toThrow();
      const [call] = transport.sentWithMethod('tools/call');
      const id = call?.['id'];
      if (profile.cancellation === 'notification') {
        const [cancel] = transport.sentWithMethod('notifications/cancelled');
        expect((cancel?.['params'] as Record<string, unknown>)['requestId']).toBe(id);
      } else {
        // The client closes the call's response stream (it aborts the POST) and sends no notification.
        expect(transport.sentWithMethod('notifications/cancelled')).toEqual([]);
        const [post] = http!.posted('tools/call');
        expect([post?.status, post?.contentType, await post?.ended]).toEqual([
          200,
          'text/event-stream',
          'error',
        ]);
      }

      // Answered after the server has read the cancellation (stdin is ordered; over HTTP the stream is gone, so
      // nothing more of the cancelled call can arrive in any case).
      await client.callTool({ name: 'test_simple_text', arguments: {} });
      const progressOf = () =>
        transport
          .receivedWithMethod('notifications/progress')
          .filter((n) => (n['params'] as { progressToken: unknown }).progressToken === id).length;
      const afterCancel = progressOf();
      const later = await client.callTool({
        name: 'long_running_operation',
        arguments: { durationMs: 400, steps: 2 },
      });
      expect(textOf(later)).toBe('Finished 2 steps in 400 ms');
      expect(progressOf()).toBe(afterCancel);
      expect(transport.received.filter((m) => m['id'] === id)).toEqual([]);
    });

    it('subscriptions/listen: toolsListChanged is acknowledged, tagged and evicts the tools cache', async () => {
      const { client, transport } = await fresh({ ownServer: true });
      const changes: unknown[] = [];
      client.setNotificationHandler('notifications/tools/list_changed', (n) => {
        changes.push(n.params);
      });
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('test_dynamic_tool');

      const subscription = await client.listen({ toolsListChanged: true });
      expect(subscription.honoredFilter).toEqual({ toolsListChanged: true });
      const [listen] = transport.sentWithMethod('subscriptions/listen');
      const subscriptionId = listen?.['id'];
      const ack = transport.receivedWithMethod('notifications/subscriptions/acknowledged');
      expect(ack.map((m) => m['params'])).toEqual([
        {
          _meta: { 'io.modelcontextprotocol/subscriptionId': subscriptionId },
          notifications: { toolsListChanged: true },
        },
      ]);

      const changed = transport.nextReceived((m) => m['method'] === 'notifications/tools/list_changed');
      await client.callTool({ name: 'test_trigger_tool_change', arguments: {} });
      expect((await changed)['params']).toEqual({
        _meta: { 'io.modelcontextprotocol/subscriptionId': subscriptionId },
      });
      const lists = transport.sentWithMethod('tools/list').length;
      expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('test_dynamic_tool');
      expect(transport.sentWithMethod('tools/list')).toHaveLength(lists + 1);

      const restored = transport.nextReceived((m) => m['method'] === 'notifications/tools/list_changed');
      await client.callTool({ name: 'test_trigger_tool_change', arguments: {} });
      await restored;
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('test_dynamic_tool');
      expect(changes).toHaveLength(2);

      await subscription.close();
      expect(await subscription.closed).toBe('local');
      const cancels = transport.sentWithMethod('notifications/cancelled');
      expect((cancels.at(-1)?.['params'] as Record<string, unknown>)['requestId']).toBe(subscriptionId);
      // The server ends the subscription without answering it (a client cancellation), and keeps serving.
      expect(textOf(await client.callTool({ name: 'test_simple_text', arguments: {} }))).toBe(
        'This is a simple text response for testing.',
      );
      expect(transport.received.filter((m) => m['id'] === subscriptionId)).toEqual([]);
    });

    it('subscriptions/listen: resourceSubscriptions deliver notifications/resources/updated', async () => {
      const { client, transport } = await fresh({ ownServer: true });
      const subscription = await client.listen({ resourceSubscriptions: ['test://watched-resource'] });
      expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: ['test://watched-resource'] });
      const updated = transport.nextReceived((m) => m['method'] === 'notifications/resources/updated');
      const touched = await client.callTool({ name: 'touch_watched_resource', arguments: {} });
      expect(textOf(touched)).toBe('test://watched-resource is now at version 1');
      // Sent while the tool runs: on one ordered channel it precedes the tool's result; over Streamable HTTP it
      // travels on the subscription's stream, apart from the result.
      if (!profile.ordered) await updated;
      const [listen] = transport.sentWithMethod('subscriptions/listen');
      expect(transport.receivedWithMethod('notifications/resources/updated').map((m) => m['params'])).toEqual(
        [
          {
            _meta: { 'io.modelcontextprotocol/subscriptionId': listen?.['id'] },
            uri: 'test://watched-resource',
          },
        ],
      );
      const read = await client.readResource({ uri: 'test://watched-resource' });
      expect(read.contents).toEqual([
        { uri: 'test://watched-resource', mimeType: 'text/plain', text: 'Watched resource, version 1' },
      ]);
      await subscription.close();
    });

    it('ClientOptions.listChanged opens a subscription at connect and refreshes the prompt list', async () => {
      let resolveChanged!: (names: string[]) => void;
      const refreshed = new Promise<string[]>((resolve) => (resolveChanged = resolve));
      const { client, transport } = await fresh({
        ownServer: true,
        listChanged: {
          prompts: {
            onChanged: (error, prompts) => {
              if (error) throw error;
              resolveChanged((prompts ?? []).map((p) => p.name));
            },
          },
        },
      });
      expect(client.autoOpenedSubscription?.honoredFilter).toEqual({ promptsListChanged: true });
      expect(
        transport
          .sentWithMethod('subscriptions/listen')
          .map((m) => (m['params'] as WireMessage)['notifications']),
      ).toEqual([{ promptsListChanged: true }]);
      await client.callTool({ name: 'test_trigger_prompt_change', arguments: {} });
      expect(await refreshed).toEqual(EXPECTED_PROMPT_NAMES.filter((n) => n !== 'test_dynamic_prompt'));
    });
  });
}
