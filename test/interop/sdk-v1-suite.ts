/**
 * The official TypeScript SDK 1.x client drives our everything server in the legacy era, through every feature
 * it has: one body of tests, run over each transport the SDK offers (stdio, Streamable HTTP, HTTP+SSE) by the
 * `sdk-v1-*.test.ts` files.
 *
 * The SDK always asks for 2025-11-25 (its newest revision); the older revisions are pinned by rewriting the
 * protocolVersion of its `initialize` request on the way out. Every message our server sends is validated
 * against the official schema of the negotiated revision.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type LoggingMessageNotification,
} from '@modelcontextprotocol/sdk/types.js';
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
import { TappedSdkTransport, type TappedTransportOptions, type WireMessage } from './tapped-sdk-transport.js';

export type OpenedSdkV1Transport = OpenedSdkTransport<Transport>;

export interface SdkV1TransportProfile {
  /** For test titles: "stdio", "Streamable HTTP", "HTTP+SSE". */
  readonly name: string;
  /**
   * Returns an SDK transport to a server for one session. With `ownServer` the session gets a server of its own:
   * its test changes server-wide state (the tool and prompt lists, a resource's version) or expects it as
   * started. Otherwise the profile may share one server among sessions (stdio never does).
   */
  open(options: { ownServer: boolean }): Promise<OpenedSdkV1Transport>;
  /**
   * Everything the server sends arrives on one ordered channel (stdio, the HTTP+SSE event stream). Streamable
   * HTTP has one stream per request plus the standalone stream, so messages on different streams may arrive in
   * any order.
   */
  readonly ordered: boolean;
}

export type SdkV1Transport = TappedSdkTransport<JSONRPCMessage, MessageExtraInfo, TransportSendOptions>;

export interface SdkV1Session {
  client: Client;
  transport: SdkV1Transport;
  tap: WireTap;
  logs: LoggingMessageNotification['params'][];
  http: HttpLog | undefined;
  /** Closes the client, then stops the server of the session. */
  close(): Promise<void>;
}

export interface SdkV1ConnectOptions extends TappedTransportOptions {
  /** A server of the session's own (see `SdkV1TransportProfile.open`). */
  ownServer?: boolean;
}

export async function connectSdkV1(
  profile: SdkV1TransportProfile,
  options: SdkV1ConnectOptions = {},
): Promise<SdkV1Session> {
  const tap = new WireTap({ validate: ['server'] });
  const opened = await profile.open({ ownServer: options.ownServer ?? false });
  const transport: SdkV1Transport = new TappedSdkTransport(opened.transport, tap, options);
  const client = new Client(
    { name: 'sdk-v1-interop', version: '1.0.0' },
    { capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: true } } },
  );
  client.setRequestHandler(CreateMessageRequestSchema, () => SAMPLING_REPLY);
  client.setRequestHandler(ElicitRequestSchema, (request) => elicitationAnswer(request.params.message));
  client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: CLIENT_ROOTS }));
  const logs: SdkV1Session['logs'] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    logs.push(notification.params);
  });
  const close = await connectSession(client, transport, opened);
  return { client, transport, tap, logs, http: opened.http, close };
}

/** Closes the session and checks that everything our server sent was valid. */
export const finishSdkV1: (session: SdkV1Session) => Promise<void> = finishSession;

/** Over HTTP, the next request may overtake a notification POSTed before it: wait for the server's 202. */
async function cancellationDelivered(session: SdkV1Session): Promise<void> {
  await session.http?.seen((e) => e.rpcMethod === 'notifications/cancelled' && e.status === 202);
}

export function describeSdkV1Client(profile: SdkV1TransportProfile): void {
  const connect = (options?: SdkV1ConnectOptions) => connectSdkV1(profile, options);
  const fresh = freshSessions(connect);

  describe(`official SDK v1 client → our everything server over ${profile.name} (legacy era, 2025-11-25)`, () => {
    let session: SdkV1Session;
    beforeAll(async () => {
      session = await connect();
    });
    afterAll(async () => {
      await finishSdkV1(session);
    });

    it('negotiates 2025-11-25 and sees our serverInfo, capabilities and instructions', () => {
      const init = session.transport.received[0] as { result: { protocolVersion: string } };
      expect(init.result.protocolVersion).toBe('2025-11-25');
      expect(session.tap.revision).toBe('2025-11-25');
      expect(session.client.getServerVersion()).toEqual({
        name: SERVER_NAME,
        title: 'MCPEngine everything server',
        version: SERVER_VERSION,
        description: 'Reference server exposing every conformance fixture and the engine showcase',
      });
      expect(session.client.getServerCapabilities()).toEqual({
        logging: {},
        completions: {},
        prompts: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        tools: { listChanged: true },
        tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      });
      expect(session.client.getInstructions()).toBe(SERVER_INSTRUCTIONS);
    });

    it('answers ping with an empty result', async () => {
      expect(await session.client.ping()).toEqual({});
    });

    it('lists every tool with a description, and the table below covers exactly the listed tools', async () => {
      const { tools, nextCursor } = await session.client.listTools();
      expect(nextCursor).toBeUndefined();
      for (const tool of tools) {
        expect(tool.description, tool.name).toMatch(/\S/);
        expect(tool.inputSchema.type).toBe('object');
      }
      const names = tools.map((t) => t.name).sort();
      expect(names).toEqual(
        [...Object.keys(EXPECTED_CALLS), ...STATEFUL_TOOLS, ...TASK_REQUIRED_TOOLS].sort(),
      );
      const add = tools.find((t) => t.name === 'add');
      expect(add).toEqual({
        name: 'add',
        title: 'Add two numbers',
        description: 'Adds two numbers and returns the sum as structured content',
        inputSchema: {
          type: 'object',
          properties: { a: { type: 'number' }, b: { type: 'number' } },
          required: ['a', 'b'],
          additionalProperties: false,
        },
        outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
        annotations: { readOnlyHint: true, idempotentHint: true },
      });
    });

    for (const [name, call] of Object.entries(EXPECTED_CALLS)) {
      it(`calls ${name} and gets its exact result`, async () => {
        const result = await session.client.callTool({ name, arguments: call.arguments ?? {} });
        expect(comparable(result)).toEqual(call.result);
        expect(result.isError ?? false).toBe(call.result.isError ?? false);
      });
    }

    it('tools that require a task are -32601 without one (the SDK, having listed them, refuses locally)', async () => {
      await session.client.listTools();
      for (const name of TASK_REQUIRED_TOOLS) {
        const local = (await session.client
          .callTool({ name, arguments: {} })
          .catch((e: unknown) => e)) as McpError;
        expect(local.code, name).toBe(-32600);
        const remote = (await session.client
          .request({ method: 'tools/call', params: { name, arguments: {} } }, CallToolResultSchema)
          .catch((e: unknown) => e)) as McpError;
        expect([remote.code, remote.message]).toEqual([
          -32601,
          `MCP error -32601: Method not found: tool "${name}" must be called as a task (task augmentation required)`,
        ]);
      }
    });

    it('test_sampling sends the prompt to the client as sampling/createMessage', async () => {
      const before = session.transport.receivedWithMethod('sampling/createMessage').length;
      await session.client.callTool({ name: 'test_sampling', arguments: { prompt: 'Say hi' } });
      const requests = session.transport.receivedWithMethod('sampling/createMessage').slice(before);
      expect(requests.map((r) => r['params'])).toEqual([
        { messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 100 },
      ]);
    });

    it('test_elicitation sends elicitation/create with the message and the username/email form', async () => {
      const before = session.transport.receivedWithMethod('elicitation/create').length;
      await session.client.callTool({
        name: 'test_elicitation',
        arguments: { message: 'Please provide your information' },
      });
      const requests = session.transport.receivedWithMethod('elicitation/create').slice(before);
      expect(requests.map((r) => r['params'])).toEqual([
        {
          message: 'Please provide your information',
          requestedSchema: {
            type: 'object',
            properties: {
              username: { type: 'string', description: "User's response" },
              email: { type: 'string', description: "User's email address" },
            },
            required: ['username', 'email'],
          },
        },
      ]);
    });

    it('test_elicitation_sep1034_defaults sends a form whose every field carries its default (SEP-1034)', async () => {
      const before = session.transport.receivedWithMethod('elicitation/create').length;
      await session.client.callTool({ name: 'test_elicitation_sep1034_defaults', arguments: {} });
      const [request] = session.transport.receivedWithMethod('elicitation/create').slice(before);
      const schema = (request?.['params'] as { requestedSchema: { properties: Record<string, unknown> } })
        .requestedSchema;
      expect(schema.properties).toEqual({
        name: { type: 'string', description: 'User name', default: 'John Doe' },
        age: { type: 'integer', description: 'User age', default: 30 },
        score: { type: 'number', description: 'User score', default: 95.5 },
        status: {
          type: 'string',
          description: 'User status',
          enum: ['active', 'inactive', 'pending'],
          default: 'active',
        },
        verified: { type: 'boolean', description: 'Verification status', default: true },
      });
    });

    it('test_elicitation_sep1330_enums sends all five enum variants (SEP-1330)', async () => {
      const before = session.transport.receivedWithMethod('elicitation/create').length;
      await session.client.callTool({ name: 'test_elicitation_sep1330_enums', arguments: {} });
      const [request] = session.transport.receivedWithMethod('elicitation/create').slice(before);
      const { properties } = (
        request?.['params'] as { requestedSchema: { properties: Record<string, Record<string, unknown>> } }
      ).requestedSchema;
      expect(properties['untitledSingle']).toEqual({
        type: 'string',
        description: 'Untitled single-select',
        enum: ['option1', 'option2', 'option3'],
      });
      expect(properties['titledSingle']).toEqual({
        type: 'string',
        description: 'Titled single-select',
        oneOf: [
          { const: 'value1', title: 'First Option' },
          { const: 'value2', title: 'Second Option' },
          { const: 'value3', title: 'Third Option' },
        ],
      });
      expect(properties['legacyEnum']).toEqual({
        type: 'string',
        description: 'Legacy titled enum',
        enum: ['opt1', 'opt2', 'opt3'],
        enumNames: ['Option One', 'Option Two', 'Option Three'],
      });
      expect(properties['untitledMulti']).toEqual({
        type: 'array',
        description: 'Untitled multi-select',
        items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
      });
      expect(properties['titledMulti']).toEqual({
        type: 'array',
        description: 'Titled multi-select',
        items: {
          anyOf: [
            { const: 'value1', title: 'First Choice' },
            { const: 'value2', title: 'Second Choice' },
            { const: 'value3', title: 'Third Choice' },
          ],
        },
      });
    });

    it('MRTR fixtures become server→client requests: multi_round asks twice, multiple_inputs asks three ways', async () => {
      const before = session.transport.received.length;
      await session.client.callTool({ name: 'test_input_required_result_multi_round', arguments: {} });
      await session.client.callTool({ name: 'test_input_required_result_multiple_inputs', arguments: {} });
      await session.client.callTool({ name: 'test_input_required_result_list_roots', arguments: {} });
      const asked = session.transport.received
        .slice(before)
        .filter((m) => m['id'] !== undefined && m['method'] !== undefined)
        .map((m) => [m['method'], (m['params'] as { message?: string } | undefined)?.message]);
      expect(asked.slice(0, 2)).toEqual([
        ['elicitation/create', 'What is your name?'],
        ['elicitation/create', 'What is your favourite colour?'],
      ]);
      // The three asks of one round go out together, in the order the handler made them.
      expect(asked.slice(2, 5)).toEqual([
        ['elicitation/create', 'What is your name?'],
        ['sampling/createMessage', undefined],
        ['roots/list', undefined],
      ]);
      expect(asked.slice(5)).toEqual([['roots/list', undefined]]);
    });

    it('structured output: add returns structuredContent that matches its outputSchema', async () => {
      const result = await session.client.callTool({ name: 'add', arguments: { a: 0.5, b: -3 } });
      expect(result.structuredContent).toEqual({ sum: -2.5 });
      expect(result.content).toEqual([{ type: 'text', text: '{"sum":-2.5}' }]);
    });

    it('invalid arguments are a tool execution error at 2025-11-25 (SEP-1303)', async () => {
      const result = await session.client.callTool({ name: 'add', arguments: { a: 'one', b: 2 } });
      expect(result).toEqual({
        content: [{ type: 'text', text: 'Invalid arguments for tool "add": /a must be a number' }],
        isError: true,
      });
    });

    it('an unknown tool is a JSON-RPC -32602 error', async () => {
      const error = await session.client.callTool({ name: 'no_such_tool', arguments: {} }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(-32602);
      expect((error as McpError).message).toBe('MCP error -32602: Unknown tool: no_such_tool');
    });

    it('lists resources and templates, and reads text, binary and templated resources', async () => {
      expect((await session.client.listResources()).resources).toEqual(EXPECTED_RESOURCES);
      expect((await session.client.listResourceTemplates()).resourceTemplates).toEqual(EXPECTED_TEMPLATES);
      expect(await session.client.readResource({ uri: 'test://static-text' })).toEqual({
        contents: [{ uri: 'test://static-text', mimeType: 'text/plain', text: STATIC_TEXT }],
      });
      expect(await session.client.readResource({ uri: 'test://static-binary' })).toEqual({
        contents: [{ uri: 'test://static-binary', mimeType: 'image/png', blob: PNG_1X1_BASE64 }],
      });
      expect(await session.client.readResource({ uri: 'test://template/123/data' })).toEqual({
        contents: [
          {
            uri: 'test://template/123/data',
            mimeType: 'application/json',
            text: '{"id":"123","templateTest":true,"data":"Data for ID: 123"}',
          },
        ],
      });
    });

    it('an unknown resource is -32002 with the uri in data (legacy resource-not-found code)', async () => {
      const error = (await session.client
        .readResource({ uri: 'test://missing' })
        .catch((e: unknown) => e)) as McpError;
      expect(error).toBeInstanceOf(McpError);
      expect(error.code).toBe(-32002);
      expect(error.data).toEqual({ uri: 'test://missing' });
    });

    it('lists every prompt with a description and gets each with its arguments', async () => {
      const { prompts } = await session.client.listPrompts();
      expect(prompts.map((p) => p.name)).toEqual(EXPECTED_PROMPT_NAMES);
      for (const prompt of prompts) expect(prompt.description, prompt.name).toMatch(/\S/);
      expect(prompts.find((p) => p.name === 'test_prompt_with_arguments')?.arguments).toEqual([
        { name: 'arg1', description: 'First test argument', required: true },
        { name: 'arg2', description: 'Second test argument', required: true },
      ]);
      for (const [name, expected] of Object.entries(EXPECTED_PROMPTS)) {
        const result = await session.client.getPrompt(
          expected.arguments ? { name, arguments: expected.arguments } : { name },
        );
        expect(result.messages, name).toEqual(expected.messages);
      }
    });

    it('a prompt missing a required argument is -32602', async () => {
      const error = (await session.client
        .getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'only one' } })
        .catch((e: unknown) => e)) as McpError;
      expect(error.code).toBe(-32602);
      expect(error.message).toBe(
        'MCP error -32602: Invalid params: missing required argument "arg2" for prompt "test_prompt_with_arguments"',
      );
    });

    it('completes prompt arguments and resource template variables', async () => {
      expect(
        await session.client.complete({
          ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
          argument: { name: 'arg1', value: 'pa' },
        }),
      ).toEqual({ completion: { values: ['paris', 'park', 'party'] } });
      expect(
        await session.client.complete({
          ref: { type: 'ref/resource', uri: 'test://template/{id}/data' },
          argument: { name: 'id', value: '1' },
        }),
      ).toEqual({ completion: { values: ['1', '123'] } });
      expect(
        await session.client.complete({
          ref: { type: 'ref/resource', uri: 'test://template/{id}/data' },
          argument: { name: 'id', value: 'zzz' },
        }),
      ).toEqual({ completion: { values: [] } });
    });
  });

  describe(`official SDK v1 client over ${profile.name}: notifications, progress, cancellation (a fresh session each)`, () => {
    it('logging: every level before setLevel, nothing below the threshold, and the level honoured after', async () => {
      const { client, logs } = await fresh();
      await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
      const expected = [
        { level: 'info', data: 'Tool execution started' },
        { level: 'info', data: 'Tool processing data' },
        { level: 'info', data: 'Tool execution completed' },
      ];
      expect(logs.splice(0)).toEqual(expected);

      expect(await client.setLoggingLevel('warning')).toEqual({});
      const quiet = await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
      expect(textOf(quiet)).toBe('Tool with logging executed successfully');
      await client.callTool({ name: 'test_logging_tool', arguments: {} });
      expect(logs).toEqual([]);

      await client.setLoggingLevel('debug');
      await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
      await client.callTool({ name: 'test_logging_tool', arguments: {} });
      expect(logs).toEqual([...expected, { level: 'info', data: 'test_logging_tool ran' }]);
    });

    it('progress: test_tool_with_progress reports 0, 50 and 100 of 100 with messages', async () => {
      const { client, transport } = await fresh();
      const progress: unknown[] = [];
      const result = await client.callTool({ name: 'test_tool_with_progress', arguments: {} }, undefined, {
        onprogress: (p) => progress.push(p),
      });
      expect(textOf(result)).toBe('Progress tool completed');
      const [call] = transport.sentWithMethod('tools/call');
      const token = (call?.['params'] as { _meta: { progressToken: unknown } })._meta.progressToken;
      const expected = [
        { progress: 0, total: 100, message: 'Starting' },
        { progress: 50, total: 100, message: 'Halfway' },
        { progress: 100, total: 100, message: 'Done' },
      ];
      // On the wire: three notifications echoing the SDK's token, all before the result.
      const resultIndex = transport.received.findIndex((m) => m['id'] === call?.['id']);
      const notifications = transport.received
        .slice(0, resultIndex)
        .filter((m) => m['method'] === 'notifications/progress');
      expect(notifications.map((n) => n['params'])).toEqual(
        expected.map((p) => ({ progressToken: token, ...p })),
      );
      // The SDK runs notification handlers a microtask late but settles responses at once, so when the last
      // notification and the result arrive in one read it drops that notification (an SDK race, not ours).
      expect(progress.length).toBeGreaterThanOrEqual(2);
      expect(progress).toEqual(expected.slice(0, progress.length));
    });

    it('progress: test_streaming_elicitation reports progress, then elicits', async () => {
      const { client, transport } = await fresh();
      const progress: unknown[] = [];
      const result = await client.callTool({ name: 'test_streaming_elicitation', arguments: {} }, undefined, {
        onprogress: (p) => progress.push(p),
      });
      expect(textOf(result)).toBe('Hello, Alice!');
      expect(progress).toEqual([{ progress: 1, total: 2, message: 'Preparing the question' }]);
      const order = transport.received.filter((m) => m['method'] !== undefined).map((m) => m['method']);
      expect(order).toEqual(['notifications/progress', 'elicitation/create']);
    });

    it('cancellation: aborting long_running_operation stops it; the server stays usable', async () => {
      const session = await fresh();
      const { client, transport } = session;
      const controller = new AbortController();
      let progressed!: () => void;
      const firstProgress = new Promise<void>((resolve) => (progressed = resolve));
      const running = client.callTool(
        { name: 'long_running_operation', arguments: { durationMs: 10_000, steps: 100 } },
        undefined,
        { signal: controller.signal, onprogress: () => progressed() },
      );
      await firstProgress;
      controller.abort('user gave up');
      await expect(running).rejects.toThrow();

      const [call] = transport.sentWithMethod('tools/call');
      const id = call?.['id'];
      const [cancel] = transport.sentWithMethod('notifications/cancelled');
      expect(cancel?.['params']).toEqual({ requestId: id, reason: 'user gave up' });

      // The next answer proves the server has read the cancellation (stdin is ordered; over HTTP the next
      // request waits for the 202 that answers the POSTed cancellation)...
      await cancellationDelivered(session);
      expect(textOf(await client.callTool({ name: 'test_simple_text', arguments: {} }))).toBe(
        'This is a simple text response for testing.',
      );
      const progressOf = () =>
        transport
          .receivedWithMethod('notifications/progress')
          .filter((n) => (n['params'] as { progressToken: unknown }).progressToken === id).length;
      const afterCancel = progressOf();
      // ...and while a 400 ms call runs, the cancelled one (a step every 100 ms) reports nothing more.
      const later = await client.callTool({
        name: 'long_running_operation',
        arguments: { durationMs: 400, steps: 2 },
      });
      expect(textOf(later)).toBe('Finished 2 steps in 400 ms');
      expect(progressOf()).toBe(afterCancel);
      expect(transport.received.filter((m) => m['id'] === id && m['method'] === undefined)).toEqual([]);
    });

    it('resources: subscribe, get notifications/resources/updated on change, unsubscribe', async () => {
      const { client, transport } = await fresh({ ownServer: true });
      expect(await client.subscribeResource({ uri: 'test://watched-resource' })).toEqual({});
      const updated = transport.nextReceived((m) => m['method'] === 'notifications/resources/updated');
      const touched = await client.callTool({ name: 'touch_watched_resource', arguments: {} });
      expect(textOf(touched)).toBe('test://watched-resource is now at version 1');
      // The notification is sent while the tool runs, so on one ordered channel it precedes the tool's result;
      // over Streamable HTTP it travels on the standalone GET stream, apart from the result.
      if (!profile.ordered) await updated;
      expect(transport.receivedWithMethod('notifications/resources/updated').map((n) => n['params'])).toEqual(
        [{ uri: 'test://watched-resource' }],
      );
      expect(await client.readResource({ uri: 'test://watched-resource' })).toEqual({
        contents: [
          { uri: 'test://watched-resource', mimeType: 'text/plain', text: 'Watched resource, version 1' },
        ],
      });

      expect(await client.unsubscribeResource({ uri: 'test://watched-resource' })).toEqual({});
      const again = await client.callTool({ name: 'touch_watched_resource', arguments: {} });
      expect(textOf(again)).toBe('test://watched-resource is now at version 2');
      // A later notification on the same stream as resources/updated proves that none was sent before it.
      const barrier = transport.nextReceived((m) => m['method'] === 'notifications/prompts/list_changed');
      await client.callTool({ name: 'test_trigger_prompt_change', arguments: {} });
      await barrier;
      expect(transport.receivedWithMethod('notifications/resources/updated')).toHaveLength(1);
    });

    it('list changed: test_trigger_tool_change hides and restores test_dynamic_tool with notifications', async () => {
      const { client, transport } = await fresh({ ownServer: true });
      const changed = transport.nextReceived((m) => m['method'] === 'notifications/tools/list_changed');
      const off = await client.callTool({ name: 'test_trigger_tool_change', arguments: {} });
      expect(textOf(off)).toBe('test_dynamic_tool is now disabled');
      expect(await changed).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).not.toContain('test_dynamic_tool');
      expect(names).toContain('test_trigger_tool_change');

      const changedBack = transport.nextReceived((m) => m['method'] === 'notifications/tools/list_changed');
      const on = await client.callTool({ name: 'test_trigger_tool_change', arguments: {} });
      expect(textOf(on)).toBe('test_dynamic_tool is now enabled');
      await changedBack;
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('test_dynamic_tool');
    });

    it('list changed: test_trigger_prompt_change sends notifications/prompts/list_changed', async () => {
      const { client, transport } = await fresh({ ownServer: true });
      const changed = transport.nextReceived((m) => m['method'] === 'notifications/prompts/list_changed');
      const off = await client.callTool({ name: 'test_trigger_prompt_change', arguments: {} });
      expect(textOf(off)).toBe('test_dynamic_prompt is now disabled');
      await changed;
      expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(
        EXPECTED_PROMPT_NAMES.filter((n) => n !== 'test_dynamic_prompt'),
      );
    });
  });

  describe(`official SDK v1 client over ${profile.name}: tasks at 2025-11-25 (experimental in the SDK)`, () => {
    /** What callToolStream yields: taskCreated, taskStatus, then result or error. */
    type StreamMessage = Record<string, any>;
    async function stream(
      client: Client,
      name: string,
      args: Record<string, unknown>,
    ): Promise<StreamMessage[]> {
      const messages: StreamMessage[] = [];
      for await (const message of client.experimental.tasks.callToolStream({ name, arguments: args })) {
        messages.push(message as unknown as StreamMessage);
      }
      return messages;
    }

    it('slow_compute runs as a task: created, polled, and its result carries the related-task _meta', async () => {
      const { client, transport } = await fresh();
      await client.listTools(); // the SDK learns which tools support tasks from the listing
      const messages = await stream(client, 'slow_compute', { seconds: 0.2, label: 'sum' });
      const [created] = messages;
      expect(created?.type).toBe('taskCreated');
      const taskId = created?.task?.taskId;
      expect(messages.at(-1)).toEqual({
        type: 'result',
        result: {
          content: [{ type: 'text', text: 'Computed sum in 0.2s' }],
          _meta: { 'io.modelcontextprotocol/related-task': { taskId } },
        },
      });
      const [call] = transport.sentWithMethod('tools/call');
      expect((call?.['params'] as Record<string, unknown>)['task']).toEqual({});
      const listed = await client.experimental.tasks.listTasks();
      expect(listed.tasks.map((t) => [t.taskId, t.status])).toEqual([[taskId, 'completed']]);
      const cancel = (await client.experimental.tasks
        .cancelTask(taskId!)
        .catch((e: unknown) => e)) as McpError;
      expect(cancel.code).toBe(-32602);
    });

    it('confirm_delete parks in input_required and asks through tasks/result, tagged with the task', async () => {
      const { client, transport } = await fresh();
      await client.listTools();
      const messages = await stream(client, 'confirm_delete', { filename: 'notes.txt' });
      const taskId = messages[0]?.task?.taskId;
      expect(messages.some((m) => m.task?.status === 'input_required')).toBe(true);
      expect(messages.at(-1)?.['result'].content).toEqual([{ type: 'text', text: 'Deleted notes.txt' }]);
      const [asked] = transport.receivedWithMethod('elicitation/create');
      expect(asked?.['params']).toEqual({
        message: 'Delete notes.txt?',
        requestedSchema: {
          type: 'object',
          properties: { confirm: { type: 'boolean', description: 'Delete the file' } },
          required: ['confirm'],
        },
        _meta: { 'io.modelcontextprotocol/related-task': { taskId } },
      });
    });

    it('a tool error fails the task; tasks/result still returns the isError result, a protocol error stays one', async () => {
      const { client } = await fresh();
      await client.listTools();
      const failing = await stream(client, 'failing_job', {});
      const failed = failing.filter((m) => m.type === 'taskStatus').at(-1);
      expect([failed?.task?.status, failed?.task?.statusMessage]).toEqual([
        'failed',
        'The job failed: the input could not be processed',
      ]);
      expect(
        await client.experimental.tasks.getTaskResult(failing[0]!.task!.taskId, CallToolResultSchema),
      ).toEqual({
        content: [{ type: 'text', text: 'The job failed: the input could not be processed' }],
        isError: true,
        _meta: { 'io.modelcontextprotocol/related-task': { taskId: failing[0]!.task!.taskId } },
      });
      const broken = await stream(client, 'protocol_error_job', {});
      const error = (await client.experimental.tasks
        .getTaskResult(broken[0]!.task!.taskId, CallToolResultSchema)
        .catch((e: unknown) => e)) as McpError;
      expect([error.code, error.message]).toEqual([
        -32603,
        'MCP error -32603: The job hit an internal error',
      ]);
    });
  });

  describe(`official SDK v1 client over ${profile.name} pinned to older revisions`, () => {
    const initializeResult = (received: WireMessage[]) =>
      (received[0] as { result: { protocolVersion: string; serverInfo: unknown; capabilities: unknown } })
        .result;

    it('2025-06-18: invalid arguments are -32602; title and structured output are present', async () => {
      const { client, transport, tap } = await fresh({ initializeVersion: '2025-06-18' });
      expect(initializeResult(transport.received).protocolVersion).toBe('2025-06-18');
      expect(tap.revision).toBe('2025-06-18');
      expect(client.getServerVersion()).toEqual({
        name: SERVER_NAME,
        title: 'MCPEngine everything server',
        version: SERVER_VERSION,
      });
      const { tools } = await client.listTools();
      expect(tools.find((t) => t.name === 'add')?.title).toBe('Add two numbers');
      expect(await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).toEqual({
        content: [{ type: 'text', text: '{"sum":3}' }],
        structuredContent: { sum: 3 },
      });
      const error = (await client
        .callTool({ name: 'add', arguments: { a: 'x', b: 2 } })
        .catch((e: unknown) => e)) as McpError;
      expect(error.code).toBe(-32602);
      expect(error.message).toBe('MCP error -32602: Invalid arguments for tool "add": /a must be a number');
      expect(comparable(await client.callTool({ name: 'get_resource_links', arguments: {} }))).toEqual(
        EXPECTED_CALLS['get_resource_links']?.result,
      );
    });

    it('2025-03-26: no title, no structuredContent, resource links rewritten as text', async () => {
      const { client, transport, tap } = await fresh({ initializeVersion: '2025-03-26' });
      expect(initializeResult(transport.received).protocolVersion).toBe('2025-03-26');
      expect(tap.revision).toBe('2025-03-26');
      expect(client.getServerVersion()).toEqual({ name: SERVER_NAME, version: SERVER_VERSION });
      const { tools } = await client.listTools();
      expect(tools.find((t) => t.name === 'add')).toEqual({
        name: 'add',
        description: 'Adds two numbers and returns the sum as structured content',
        inputSchema: {
          type: 'object',
          properties: { a: { type: 'number' }, b: { type: 'number' } },
          required: ['a', 'b'],
          additionalProperties: false,
        },
        annotations: { readOnlyHint: true, idempotentHint: true },
      });
      expect(await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).toEqual({
        content: [{ type: 'text', text: '{"sum":3}' }],
      });
      expect(await client.callTool({ name: 'get_resource_links', arguments: {} })).toEqual({
        content: [
          { type: 'text', text: 'Two resources you can read:' },
          { type: 'text', text: 'Resource: Static text resource <test://static-text>' },
          { type: 'text', text: 'Resource: Template data 42 <test://template/42/data>' },
        ],
      });
      expect(comparable(await client.callTool({ name: 'test_audio_content', arguments: {} }))).toEqual(
        EXPECTED_CALLS['test_audio_content']?.result,
      );
      expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(EXPECTED_PROMPT_NAMES);
    });

    it('2024-11-05: no annotations, no completions capability, audio rewritten as text', async () => {
      const { client, transport, tap } = await fresh({ initializeVersion: '2024-11-05' });
      expect(initializeResult(transport.received).protocolVersion).toBe('2024-11-05');
      expect(tap.revision).toBe('2024-11-05');
      expect(client.getServerCapabilities()).toEqual({
        logging: {},
        prompts: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        tools: { listChanged: true },
      });
      const { tools } = await client.listTools();
      for (const tool of tools)
        expect(Object.keys(tool).sort(), tool.name).toEqual(['description', 'inputSchema', 'name']);
      expect(await client.callTool({ name: 'test_audio_content', arguments: {} })).toEqual({
        content: [
          {
            type: 'text',
            text: '[audio content (audio/wav) omitted: this protocol revision cannot carry audio]',
          },
        ],
      });
      expect(comparable(await client.callTool({ name: 'test_simple_text', arguments: {} }))).toEqual(
        EXPECTED_CALLS['test_simple_text']?.result,
      );
      expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(
        EXPECTED_RESOURCES.map((r) => r.uri),
      );
      // 2024-11-05 does not gate completion/complete behind a capability.
      expect(
        await client.complete({
          ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
          argument: { name: 'arg1', value: 'te' },
        }),
      ).toEqual({ completion: { values: ['test', 'testValue1'] } });
    });
  });
}
