import { describe, expect, it } from 'vitest';
import { createTestServer } from '../../test/fixture-server.js';
import { handlerSetup, HttpPeer, sleep } from '../../test/http-harness.js';
import type { McpHttpHandler } from './server-handler.js';

const setup = handlerSetup(() => createTestServer());

/** A peer whose requests say which address they come from (read by the `peerOf` option below). */
function peerFrom(handler: McpHttpHandler, address: string): HttpPeer {
  return new HttpPeer((request) => {
    request.headers.set('x-test-peer', address);
    return handler(request);
  });
}
const peerOf = (request: Request) => request.headers.get('x-test-peer') ?? undefined;

async function initializeStatus(peer: HttpPeer): Promise<number> {
  try {
    await peer.initialize();
    return 200;
  } catch (error) {
    return Number(/answered (\d+)/.exec(String(error))?.[1]);
  }
}

describe('session table exhaustion', () => {
  it('caps the sessions of one anonymous peer, not those of the others', async () => {
    const { handler } = setup({ sessions: { maxPerPrincipal: 3, peerOf } });
    for (let i = 0; i < 3; i++) {
      const peer = peerFrom(handler, '10.0.0.1');
      await peer.initialize();
      expect((await peer.call(1, 'tools/list')).response.result.tools.length).toBeGreaterThan(0);
    }
    expect(await initializeStatus(peerFrom(handler, '10.0.0.1'))).toBe(429);
    expect(await initializeStatus(peerFrom(handler, '10.0.0.2'))).toBe(200);
    expect(handler.stats().sessions).toBe(4);
  });

  it('caps the sessions of one principal, whatever the peer address', async () => {
    const { handler } = setup({
      sessions: { maxPerPrincipal: 2, peerOf },
      authenticate: (request) => ({
        subject: request.headers.get('x-test-user') ?? 'nobody',
        scopes: [],
      }),
    });
    const as = (user: string, address: string) =>
      new HttpPeer((request) => {
        request.headers.set('x-test-user', user);
        request.headers.set('x-test-peer', address);
        return handler(request);
      });
    for (const address of ['10.0.0.1', '10.0.0.2']) {
      const peer = as('mallory', address);
      await peer.initialize();
      await peer.call(1, 'tools/list');
    }
    expect(await initializeStatus(as('mallory', '10.0.0.3'))).toBe(429);
    expect(await initializeStatus(as('alice', '10.0.0.1'))).toBe(200);
  });

  it('closes idle never-used sessions before refusing a new one', async () => {
    const { handler } = setup({ sessions: { max: 2, peerOf } });
    const idle = [peerFrom(handler, '10.0.0.1'), peerFrom(handler, '10.0.0.1')];
    for (const peer of idle) await peer.initialize();
    // Older than the grace left to a client between initialize and its first request (1 s).
    await sleep(1_200);
    const newcomer = peerFrom(handler, '10.0.0.2');
    expect(await initializeStatus(newcomer)).toBe(200);
    expect((await newcomer.call(1, 'tools/list')).answer.status).toBe(200);
    const statuses = await Promise.all(idle.map(async (peer) => (await peer.call(2, 'ping')).answer.status));
    expect(statuses.sort()).toEqual([200, 404]);
  });

  it('keeps refusing when every session is in use', async () => {
    const { handler } = setup({ sessions: { max: 2, peerOf } });
    for (const address of ['10.0.0.1', '10.0.0.2']) {
      const peer = peerFrom(handler, address);
      await peer.initialize();
      await peer.call(1, 'tools/list');
    }
    await sleep(1_200);
    expect(await initializeStatus(peerFrom(handler, '10.0.0.3'))).toBe(503);
  });

  it('does not let pings keep a session nobody uses alive', async () => {
    const { peer } = setup({ sessions: { idleTimeoutMs: 300 } });
    await peer.initialize();
    // Pinging far more often than the idle timeout: the session still expires (404) once idle long enough.
    let status = 200;
    for (let attempt = 0; attempt < 200 && status === 200; attempt++) {
      status = (await peer.call(attempt, 'ping')).answer.status;
      await sleep(50);
    }
    expect(status).toBe(404);
  });

  it('binds a session to the issuer of its token, not only to the subject', async () => {
    const { handler } = setup({
      authenticate: (request) => ({
        subject: 'alice',
        scopes: [],
        extra: { iss: request.headers.get('x-test-issuer') ?? '' },
      }),
    });
    let issuer = 'https://as-one.example';
    const peer = new HttpPeer((request) => {
      request.headers.set('x-test-issuer', issuer);
      return handler(request);
    });
    await peer.initialize();
    expect((await peer.call(1, 'tools/list')).answer.status).toBe(200);
    // The same subject from another authorization server is another person: the session is unknown to it.
    issuer = 'https://as-two.example';
    expect((await peer.call(2, 'tools/list')).answer.status).toBe(404);
  });
});
