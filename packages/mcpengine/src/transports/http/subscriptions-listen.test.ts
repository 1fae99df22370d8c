import { describe, expect, it } from 'vitest';
import { createTestServer } from '../../test/fixture-server.js';
import { handlerSetup, HttpPeer } from '../../test/http-harness.js';

function serverWithSecret() {
  const server = createTestServer();
  server.addResource({
    uri: 'secret://payroll',
    name: 'payroll',
    mimeType: 'text/plain',
    requiredScopes: ['hr:read'],
    read: () => 'salaries',
  });
  server.addResource({
    uri: 'secret://hidden',
    name: 'hidden',
    mimeType: 'text/plain',
    visible: () => false,
    read: () => 'hidden',
  });
  return server;
}

const setup = handlerSetup(serverWithSecret);

/** Opens a modern subscription with `uris` as `user` (whose scopes are `scopes`); returns the acknowledged filter. */
async function acknowledged(peer: HttpPeer, uris: string[]): Promise<any> {
  const controller = new AbortController();
  const answer = await peer.modern(
    'listen',
    'subscriptions/listen',
    { notifications: { resourceSubscriptions: uris } },
    { signal: controller.signal },
  );
  if (!answer.sse) return answer.json;
  const ack = await answer.sse.message((m) => m.method === 'notifications/subscriptions/acknowledged');
  controller.abort();
  await answer.sse.cancel().catch(() => {});
  return ack.params.notifications;
}

function scoped(handler: (request: Request) => Promise<Response>, scopes: string) {
  return new HttpPeer((request) => {
    request.headers.set('x-test-scopes', scopes);
    return handler(request);
  });
}

describe('subscriptions/listen checks resources like resources/read', () => {
  const authenticate = (request: Request) => ({
    subject: 'someone',
    scopes: (request.headers.get('x-test-scopes') ?? '').split(' ').filter(Boolean),
  });

  it('does not watch a resource the caller may not read (requiredScopes, visibility)', async () => {
    const { handler } = setup({ authenticate });
    const uris = ['test://doc', 'secret://payroll', 'secret://hidden', 'test://items/7', 'nowhere://x'];
    const withoutScope = await acknowledged(scoped(handler, ''), uris);
    expect(withoutScope.resourceSubscriptions).toEqual(['test://doc', 'test://items/7']);
    const withScope = await acknowledged(scoped(handler, 'hr:read'), uris);
    expect(withScope.resourceSubscriptions).toEqual(['test://doc', 'secret://payroll', 'test://items/7']);
  });

  it('caps the number of URIs', async () => {
    const { peer } = setup();
    const many = Array.from({ length: 257 }, (_, i) => `test://items/${i}`);
    const refused = await acknowledged(peer, many);
    expect(refused.error.code).toBe(-32602);
    expect(refused.error.message).toMatch(/at most 256/);
    const accepted = await acknowledged(peer, many.slice(0, 256));
    expect(accepted.resourceSubscriptions).toHaveLength(256);
  });
});
