/**
 * The official TypeScript SDK 1.x client drives our everything server over the 2024-11-05 HTTP+SSE transport
 * (`SSEClientTransport`): the shared body of `sdk-v1-suite.ts`, then what only this transport has — one event
 * stream carries everything, each POST is only accepted.
 *
 * Our server serves every legacy revision on this transport, so the SDK negotiates 2025-11-25 here as on stdio.
 * Sessions share one server process, except those whose tests change server-wide state.
 */
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { describe, expect, it } from 'vitest';
import { everythingHttpSessions } from './everything-http.js';
import {
  connectSdkV1,
  describeSdkV1Client,
  finishSdkV1,
  type SdkV1TransportProfile,
} from './sdk-v1-suite.js';

const servers = everythingHttpSessions((server, http) => ({
  transport: new SSEClientTransport(server.sseUrl, { fetch: http.fetch }),
}));

const profile: SdkV1TransportProfile = {
  name: 'HTTP+SSE',
  // One event stream carries every server message, in the order the server sent them.
  ordered: true,
  open: servers.open,
};

describeSdkV1Client(profile);

describe('official SDK v1 client over HTTP+SSE: the HTTP layer', () => {
  it('one GET opens the event stream; every message is POSTed to the endpoint it names and accepted with 202', async () => {
    const session = await connectSdkV1(profile);
    try {
      const http = session.http!;
      await session.client.callTool({ name: 'test_sampling', arguments: { prompt: 'Say hi' } });
      // The result may arrive on the event stream before the 202 that accepted the client's answer.
      await http.seen((e) => e.method === 'POST', 4);
      const [stream, ...posts] = http.exchanges;
      expect([stream?.method, stream?.path, stream?.status, stream?.contentType]).toEqual([
        'GET',
        '/sse',
        200,
        'text/event-stream',
      ]);
      // initialize, notifications/initialized, tools/call, and the answer to sampling/createMessage.
      expect(posts.map((e) => [e.method, e.rpcMethod, e.status, e.contentType])).toEqual([
        ['POST', 'initialize', 202, null],
        ['POST', 'notifications/initialized', 202, null],
        ['POST', 'tools/call', 202, null],
        ['POST', undefined, 202, null],
      ]);
      const endpoint = posts[0]!;
      expect(endpoint.path).toBe('/messages');
      expect(posts.every((e) => e.path === endpoint.path && e.query === endpoint.query)).toBe(true);
      expect(endpoint.query).toMatch(/^\?sessionId=[\w-]+$/);
      // Everything the server sent came on the one stream: the client saw each response after its request.
      expect(session.transport.received.map((m) => m['method'] ?? 'response')).toEqual([
        'response',
        'sampling/createMessage',
        'response',
      ]);
    } finally {
      await finishSdkV1(session);
    }
  });
});
