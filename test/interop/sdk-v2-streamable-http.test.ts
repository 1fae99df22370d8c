/**
 * The official TypeScript SDK v2 client drives our everything server over Streamable HTTP in the modern era
 * (2026-07-28): the shared body of `sdk-v2-suite.ts`, then what only HTTP has — stateless requests with the
 * modern headers, JSON or SSE answers, `Mcp-Param-*` headers, and modern errors as HTTP statuses.
 *
 * Sessions share one server process, except those whose tests change server-wide state.
 */
import {
  SdkHttpError,
  StreamableHTTPClientTransport,
  type ProtocolError,
} from '@modelcontextprotocol/client';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { everythingHttpSessions } from './everything-http.js';
import {
  connectSdkV2,
  describeSdkV2Client,
  finishSdkV2,
  MODERN,
  type SdkV2TransportProfile,
} from './sdk-v2-suite.js';

/** A result schema for a method the SDK does not know. */
const EmptyResultSchema = z.object({});

const servers = everythingHttpSessions((server, http) => ({
  transport: new StreamableHTTPClientTransport(server.mcpUrl, { fetch: http.fetch }),
}));

const profile: SdkV2TransportProfile = {
  name: 'Streamable HTTP',
  ordered: false,
  cancellation: 'close-stream',
  open: servers.open,
};

describeSdkV2Client(profile);

describe('official SDK v2 client over Streamable HTTP: the HTTP layer', () => {
  it('every request is a stateless POST naming its version and method in headers: no session, GET or DELETE', async () => {
    const session = await connectSdkV2(profile);
    const http = session.http!;
    try {
      await session.client.listTools();
      await session.client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
      await session.client.readResource({ uri: 'test://static-text' });
      await session.client.getPrompt({ name: 'test_simple_prompt' });
    } finally {
      await finishSdkV2(session);
    }
    expect(
      http.exchanges.map((e) => [
        e.method,
        e.rpcMethod,
        e.status,
        e.requestHeaders.get('mcp-method'),
        e.requestHeaders.get('mcp-name'),
      ]),
    ).toEqual([
      ['POST', 'server/discover', 200, 'server/discover', null],
      ['POST', 'tools/list', 200, 'tools/list', null],
      ['POST', 'tools/call', 200, 'tools/call', 'add'],
      ['POST', 'resources/read', 200, 'resources/read', 'test://static-text'],
      ['POST', 'prompts/get', 200, 'prompts/get', 'test_simple_prompt'],
    ]);
    for (const exchange of http.exchanges) {
      expect([exchange.protocolVersion, exchange.sessionId, exchange.responseSessionId]).toEqual([
        MODERN,
        null,
        null,
      ]);
    }
  });

  it('an answer ready at once is JSON (input_required rounds too); notifications first, or a subscription, make it SSE', async () => {
    const session = await connectSdkV2(profile);
    const http = session.http!;
    try {
      const { client } = session;
      await client.callTool({ name: 'test_simple_text', arguments: {} });
      await client.callTool({ name: 'test_input_required_result_elicitation', arguments: {} });
      await client.callTool({ name: 'test_tool_with_progress', arguments: {} }, { onprogress: () => {} });
      const subscription = await client.listen({ toolsListChanged: true });
      await subscription.close();
      // The subscription's stream is closed by the client; its notifications/cancelled is accepted as well.
      await http.seen((e) => e.rpcMethod === 'notifications/cancelled');
      expect(await http.posted('subscriptions/listen')[0]?.ended).toBe('error');
    } finally {
      await finishSdkV2(session);
    }
    expect(http.exchanges.slice(1).map((e) => [e.rpcMethod, e.status, e.contentType])).toEqual([
      ['tools/call', 200, 'application/json'],
      ['tools/call', 200, 'application/json'],
      ['tools/call', 200, 'application/json'],
      ['tools/call', 200, 'text/event-stream'],
      ['subscriptions/listen', 200, 'text/event-stream'],
      ['notifications/cancelled', 202, null],
    ]);
  });

  it('x-mcp-header: a call before the tool is listed is refused 400/-32020; the SDK lists and retries with Mcp-Param-Region', async () => {
    const session = await connectSdkV2(profile);
    const http = session.http!;
    try {
      const result = await session.client.callTool({
        name: 'test_header_echo',
        arguments: { region: 'eu-west-1' },
      });
      expect(result.content).toEqual([{ type: 'text', text: 'Region: eu-west-1' }]);
      const [call] = session.transport.sentWithMethod('tools/call');
      expect(session.transport.received.find((m) => m['id'] === call?.['id'])).toEqual({
        jsonrpc: '2.0',
        id: call?.['id'],
        error: { code: -32020, message: 'Header mismatch: the Mcp-Param-Region header is required' },
      });
    } finally {
      await finishSdkV2(session);
    }
    expect(
      http.exchanges.slice(1).map((e) => [e.rpcMethod, e.status, e.requestHeaders.get('mcp-param-region')]),
    ).toEqual([
      ['tools/call', 400, null],
      ['tools/list', 200, null],
      ['tools/call', 200, 'eu-west-1'],
    ]);
  });

  it('modern errors carry their HTTP status: -32602 and -32021 are 400, and the SDK surfaces the JSON-RPC error', async () => {
    const session = await connectSdkV2(profile);
    const http = session.http!;
    try {
      const { client } = session;
      const errors = [
        await client.callTool({ name: 'no_such_tool', arguments: {} }).catch((e: unknown) => e),
        await client.callTool({ name: 'failing_job', arguments: {} }).catch((e: unknown) => e),
        await client.readResource({ uri: 'test://missing' }).catch((e: unknown) => e),
      ];
      expect(errors.map((e) => [(e as ProtocolError).constructor.name, (e as ProtocolError).code])).toEqual([
        ['ProtocolError', -32602],
        ['MissingRequiredClientCapabilityError', -32021],
        ['ResourceNotFoundError', -32602],
      ]);
    } finally {
      await finishSdkV2(session);
    }
    expect(http.exchanges.slice(1).map((e) => [e.rpcMethod, e.status, e.contentType])).toEqual([
      ['tools/call', 400, 'application/json'],
      ['tools/call', 400, 'application/json'],
      ['resources/read', 400, 'application/json'],
    ]);
  });

  it('an unknown method is 404 with -32601 in the body (the SDK reports it as an HTTP error that carries the body)', async () => {
    const session = await connectSdkV2(profile);
    const http = session.http!;
    try {
      const error = await session.client
        .request({ method: 'no/such/method', params: {} }, EmptyResultSchema)
        .catch((e: unknown) => e);
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        error: { code: -32601, message: 'Method not found: no/such/method' },
      });
      expect(error).toBeInstanceOf(SdkHttpError);
      expect((error as SdkHttpError).data).toEqual({ status: 404, statusText: 'Not Found', text: body });
      // The transport reported it too; it is the expected outcome here, not a failure of the conversation.
      expect(session.transport.transportErrors.splice(0)).toEqual([error]);
    } finally {
      await finishSdkV2(session);
    }
    expect(http.exchanges.slice(1).map((e) => [e.rpcMethod, e.status, e.contentType])).toEqual([
      ['no/such/method', 404, 'application/json'],
    ]);
  });
});
