/**
 * The official TypeScript SDK 1.x client drives our everything server over Streamable HTTP in the legacy era:
 * the shared body of `sdk-v1-suite.ts`, then what only HTTP has — the session id, the standalone GET stream,
 * server→client requests on a POST's SSE stream, a cancelled request's stream, and session termination with
 * DELETE.
 *
 * Sessions share one server process, except those whose tests change server-wide state.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { everythingHttpSessions, HttpLog } from './everything-http.js';
import {
  connectSdkV1,
  describeSdkV1Client,
  finishSdkV1,
  type SdkV1TransportProfile,
} from './sdk-v1-suite.js';
import type { WireMessage } from './tapped-sdk-transport.js';

const servers = everythingHttpSessions((server, http) => ({
  transport: new StreamableHTTPClientTransport(server.mcpUrl, { fetch: http.fetch }),
  // The SDK opens the standalone stream once the server has accepted notifications/initialized.
  ready: () => http.seen((e) => e.method === 'GET' && e.status === 200),
}));

const profile: SdkV1TransportProfile = {
  name: 'Streamable HTTP',
  ordered: false,
  open: servers.open,
};

describeSdkV1Client(profile);

describe('official SDK v1 client over Streamable HTTP: the HTTP layer', () => {
  it('initialize assigns a session; every later request carries it and the negotiated MCP-Protocol-Version', async () => {
    const session = await connectSdkV1(profile);
    try {
      const http = session.http!;
      await session.client.callTool({ name: 'test_simple_text', arguments: {} });
      const [initialize, ...later] = http.exchanges;
      expect(initialize).toMatchObject({
        method: 'POST',
        rpcMethod: 'initialize',
        sessionId: null,
        status: 200,
        contentType: 'application/json',
      });
      const id = initialize!.responseSessionId;
      expect(id).toMatch(/^[\x21-\x7e]+$/);
      expect(later.map((e) => [e.method, e.rpcMethod, e.status, e.contentType])).toEqual([
        ['POST', 'notifications/initialized', 202, null],
        ['GET', undefined, 200, 'text/event-stream'],
        ['POST', 'tools/call', 200, 'application/json'],
      ]);
      for (const exchange of later) {
        expect([exchange.sessionId, exchange.protocolVersion]).toEqual([id, '2025-11-25']);
      }
    } finally {
      await finishSdkV1(session);
    }
  });

  it("server→client requests ride the POST's SSE stream; the client's answers are POSTed and accepted", async () => {
    const session = await connectSdkV1(profile);
    try {
      const http = session.http!;
      const from = http.exchanges.length;
      const result = await session.client.callTool({
        name: 'test_input_required_result_multiple_inputs',
        arguments: {},
      });
      expect(result.content).toEqual([
        { type: 'text', text: 'This is a test response from the client Alice (roots: 1)' },
      ]);
      // One POST for the call, answered with an event stream that carries the three requests and the result;
      // one POST per answer, each accepted with 202 and no body (the result may arrive before the last 202).
      const posts = http.exchanges.slice(0, from).filter((e) => e.method === 'POST').length;
      await http.seen((e) => e.method === 'POST', posts + 4);
      expect(http.exchanges.slice(from).map((e) => [e.method, e.rpcMethod, e.status, e.contentType])).toEqual(
        [
          ['POST', 'tools/call', 200, 'text/event-stream'],
          ['POST', undefined, 202, null],
          ['POST', undefined, 202, null],
          ['POST', undefined, 202, null],
        ],
      );
      // Each of the three requests was answered once (the SDK may finish its handlers in any order).
      const ids = (messages: WireMessage[]) => messages.map((m) => String(m['id'])).sort();
      const requests = session.transport.received.filter((m) => m['method'] !== undefined);
      expect(requests.map((m) => m['method'])).toEqual([
        'elicitation/create',
        'sampling/createMessage',
        'roots/list',
      ]);
      expect(ids(session.transport.sent.filter((m) => m['method'] === undefined))).toEqual(ids(requests));
    } finally {
      await finishSdkV1(session);
    }
  });

  it("a cancelled call's SSE response stream ends without a response", async () => {
    const session = await connectSdkV1(profile);
    try {
      const { client, transport } = session;
      const http = session.http!;
      const controller = new AbortController();
      const running = client.callTool(
        { name: 'long_running_operation', arguments: { durationMs: 10_000, steps: 100 } },
        undefined,
        { signal: controller.signal, onprogress: () => controller.abort('user gave up') },
      );
      await expect(running).rejects.toThrow('user gave up');
      await http.seen((e) => e.rpcMethod === 'notifications/cancelled');
      expect(http.posted('notifications/cancelled').map((e) => e.status)).toEqual([202]);
      const [call] = http.posted('tools/call');
      expect([call?.status, call?.contentType]).toEqual([200, 'text/event-stream']);
      // The server ends the stream: the client has not closed it (it closes nothing on cancellation in 1.x).
      expect(await call!.ended).toBe('end');
      const [request] = transport.sentWithMethod('tools/call');
      expect(transport.received.filter((m) => m['id'] === request?.['id'])).toEqual([]);
    } finally {
      await finishSdkV1(session);
    }
  });

  it('SEP-1699: the server closes the stream of test_reconnection; the SDK resumes it with Last-Event-ID', async () => {
    const session = await connectSdkV1(profile);
    try {
      const http = session.http!;
      const from = http.exchanges.length;
      const result = await session.client.callTool({ name: 'test_reconnection', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'Reconnection test completed successfully' }]);
      const [post, resumed, ...more] = http.exchanges.slice(from);
      expect(more).toEqual([]);
      expect([post?.rpcMethod, post?.status, post?.contentType, await post?.ended]).toEqual([
        'tools/call',
        200,
        'text/event-stream',
        'end',
      ]);
      // The result arrives on the resumed stream, which then ends: the request is answered.
      expect([resumed?.method, resumed?.status, resumed?.contentType, await resumed?.ended]).toEqual([
        'GET',
        200,
        'text/event-stream',
        'end',
      ]);
      expect(resumed?.lastEventId).toMatch(/^[0-9a-z]+-\d+$/);
      expect(resumed?.sessionId).toBe(post?.sessionId);
    } finally {
      await finishSdkV1(session);
    }
  });
});

describe('official SDK v1 client over Streamable HTTP: session termination', () => {
  it('DELETE ends the session and its standalone stream; the session id is then 404', async () => {
    const session = await connectSdkV1(profile);
    let id: string;
    try {
      const http = session.http!;
      const inner = session.transport;
      id = inner.sessionId!;
      expect(await session.client.ping()).toEqual({});

      await inner.terminateSession();
      const [standalone] = http.exchanges.filter((e) => e.method === 'GET');
      const [deleted] = http.exchanges.filter((e) => e.method === 'DELETE');
      expect([deleted?.sessionId, deleted?.status]).toEqual([id, 200]);
      expect(inner.sessionId).toBeUndefined();
      expect(await standalone!.ended).toBe('end');
    } finally {
      await finishSdkV1(session);
    }

    // A client that still holds the id (the SDK's reconnect path: no initialize) is refused with 404.
    const stale = new HttpLog();
    const transport = new StreamableHTTPClientTransport(servers.shared().mcpUrl, {
      sessionId: id,
      fetch: stale.fetch,
    });
    const client = new Client({ name: 'sdk-v1-stale', version: '1.0.0' });
    await client.connect(transport);
    try {
      const error = await client.ping().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StreamableHTTPError);
      expect((error as StreamableHTTPError).code).toBe(404);
      expect((error as Error).message).toBe(
        `Streamable HTTP error: Error POSTing to endpoint: ${JSON.stringify({
          jsonrpc: '2.0',
          id: 0,
          error: { code: -32600, message: 'Session not found' },
        })}`,
      );
      expect(stale.exchanges.map((e) => [e.method, e.sessionId, e.status])).toEqual([['POST', id, 404]]);
    } finally {
      await client.close();
    }
  });
});
