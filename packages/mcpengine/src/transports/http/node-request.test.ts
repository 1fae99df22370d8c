import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { NodeRequest } from './node-request.js';
import { bodyCollector, onRequestAbort } from './server-request.js';

/** Sends one request to a throwaway server and hands the IncomingMessage to `use` (the response waits for it). */
async function withIncoming(
  options: { method: string; headers: [string, string][]; body?: string },
  use: (req: IncomingMessage) => Promise<void>,
): Promise<void> {
  let failure: unknown;
  const server = createServer((req, res) => {
    use(req)
      .catch((error: unknown) => (failure = error))
      .finally(() => res.end());
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve, reject) => {
    const outgoing = httpRequest(
      { host: '127.0.0.1', port, method: options.method, path: '/mcp?x=1' },
      (res) => {
        res.resume();
        res.on('end', resolve);
      },
    );
    for (const [name, value] of options.headers) outgoing.appendHeader(name, value);
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
  if (failure) throw failure;
}

const servers: ReturnType<typeof createServer>[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

describe('NodeRequest', () => {
  it('answers method, url, headers and signal without building a Request, and is a Request', async () => {
    await withIncoming(
      {
        method: 'POST',
        headers: [
          ['X-Twice', 'a'],
          ['x-twice', 'b'],
          ['Content-Type', 'application/json'],
        ],
        body: '{}',
      },
      async (req) => {
        const url = new URL(req.url!, `http://${req.headers.host}`);
        const request = new NodeRequest(req, url.pathname, url) as unknown as Request;
        expect(request).toBeInstanceOf(Request);
        expect(request.method).toBe('POST');
        expect(request.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp\?x=1$/);
        expect(request.signal.aborted).toBe(false);
        expect(request.signal).toBe(request.signal);
        // Duplicates are joined the way Headers.append joins them.
        expect(request.headers.get('x-twice')).toBe('a, b');
        expect(request.headers.get('X-TWICE')).toBe('a, b');
        expect(request.headers.has('content-type')).toBe(true);
        expect(request.headers.get('absent')).toBeNull();
        expect(request.headers).toBeInstanceOf(Headers);
        expect([...request.headers.keys()]).toContain('x-twice');
        const outcome = await bodyCollector(request)!.collect(1_000);
        expect(outcome.kind).toBe('body');
        expect(Buffer.from((outcome as { bytes: Uint8Array }).bytes).toString()).toBe('{}');
      },
    );
  });

  it('becomes a real Request for anything else, body included', async () => {
    await withIncoming(
      { method: 'POST', headers: [['content-type', 'application/json']], body: '{"hello":"world"}' },
      async (req) => {
        const request = new NodeRequest(req, '/mcp') as unknown as Request;
        expect(request.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp\?x=1$/);
        expect(await request.json()).toEqual({ hello: 'world' });
        expect(request.bodyUsed).toBe(true);
        // Once the real Request exists, the body is read through it (and it is spent).
        expect(await bodyCollector(request)!.collect(1_000)).toEqual({ kind: 'failed' });
        expect(Object.prototype.toString.call(request)).toBe('[object Request]');
      },
    );
  });

  it('stops reading when cancelled, leaving the rest unread', async () => {
    await withIncoming({ method: 'POST', headers: [], body: 'x'.repeat(100_000) }, async (req) => {
      const request = new NodeRequest(req, '/mcp') as unknown as Request;
      const collector = bodyCollector(request)!;
      const collecting = collector.collect(1_000_000);
      collector.cancel();
      expect(await collecting).toEqual({ kind: 'cancelled' });
      expect(req.destroyed).toBe(false);
      expect(req.complete).toBe(false);
      // The body can be taken once only.
      expect((request as unknown as NodeRequest).takeBody()).toBeUndefined();
      req.resume();
    });
  });

  it('stops at the limit, leaving the rest unread', async () => {
    await withIncoming({ method: 'POST', headers: [], body: 'x'.repeat(100_000) }, async (req) => {
      const request = new NodeRequest(req, '/mcp') as unknown as Request;
      expect(await bodyCollector(request)!.collect(10)).toEqual({ kind: 'too-large' });
      expect(req.destroyed).toBe(false);
      req.resume();
    });
  });

  it('has no body for GET', async () => {
    await withIncoming({ method: 'GET', headers: [] }, async (req) => {
      const request = new NodeRequest(req, '/mcp') as unknown as Request;
      expect(bodyCollector(request)).toBeNull();
      expect(request.body).toBeNull();
    });
  });

  it('aborts its signal and its listeners once, whenever they were asked for', async () => {
    await withIncoming({ method: 'GET', headers: [] }, async (req) => {
      const node = new NodeRequest(req, '/mcp');
      const request = node as unknown as Request;
      const calls: string[] = [];
      onRequestAbort(request, () => calls.push('before'));
      const early = request.signal;
      NodeRequest.abort(node);
      NodeRequest.abort(node);
      expect(early.aborted).toBe(true);
      onRequestAbort(request, () => calls.push('after'));
      expect(calls).toEqual(['before', 'after']);
      // A signal asked for only after the abort is born aborted.
      const late = new NodeRequest(req, '/mcp');
      NodeRequest.abort(late);
      expect((late as unknown as Request).signal.aborted).toBe(true);
    });
  });

  it('follows the signal of a plain Request', () => {
    const controller = new AbortController();
    const request = new Request('http://localhost/', { signal: controller.signal });
    const calls: number[] = [];
    onRequestAbort(request, () => calls.push(1));
    controller.abort();
    controller.abort();
    onRequestAbort(request, () => calls.push(2));
    expect(calls).toEqual([1, 2]);
  });

  it('reads the body of a plain Request through its stream', async () => {
    const request = new Request('http://localhost/', { method: 'POST', body: 'xyz' });
    const outcome = await bodyCollector(request)!.collect(10);
    expect(Buffer.from((outcome as { bytes: Uint8Array }).bytes).toString()).toBe('xyz');
    expect(
      await bodyCollector(new Request('http://localhost/', { method: 'POST', body: 'xyz' }))!.collect(2),
    ).toEqual({
      kind: 'too-large',
    });
    expect(bodyCollector(new Request('http://localhost/'))).toBeNull();
  });
});
