import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestServer } from '../../test/fixture-server.js';
import { HttpPeer, MODERN_VERSION, modernMeta } from '../../test/http-harness.js';
import { WireTap } from '@mcpengine/oracle';
import { serveHttp, type HttpServing } from './node.js';
import { createMcpHttpHandler } from './server-handler.js';

const servings: HttpServing[] = [];
const taps: WireTap[] = [];
afterEach(async () => {
  for (const serving of servings.splice(0)) await serving.close({ drainTimeoutMs: 0 });
  for (const tap of taps.splice(0)) tap.assertClean();
});

/** A server with a tool whose `region` argument is mirrored in `Mcp-Param-Region`. */
function regionServer() {
  const server = createTestServer();
  server.addTool<{ region: string }>({
    name: 'locate',
    description: 'Answers with its region',
    inputSchema: {
      type: 'object',
      properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
      required: ['region'],
    },
    handler: ({ region }) => region,
  });
  return server;
}

const locate = (region: string) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'locate', arguments: { region }, _meta: modernMeta() },
});

/** POSTs with Node's client, which sends an array value as repeated header lines. */
async function post(
  serving: HttpServing,
  body: unknown,
  headers: Record<string, string | string[]>,
): Promise<{ status: number; json: any }> {
  const tap = new WireTap({ validate: ['server'] });
  taps.push(tap);
  tap.record(body, 'client');
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      serving.url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': MODERN_VERSION,
          ...headers,
        },
      },
      (response) => {
        let data = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (data += chunk));
        response.on('end', () => {
          const json = JSON.parse(data);
          tap.record(json, 'server');
          resolve({ status: response.statusCode!, json });
        });
      },
    );
    request.on('error', reject);
    request.end(text);
  });
}

describe('repeated request metadata headers (2026-07-28)', () => {
  it('refuses a repeated Mcp-Param header even when its joined value equals the body (Node)', async () => {
    const serving = await serveHttp(regionServer());
    servings.push(serving);
    const base = { 'mcp-method': 'tools/call', 'mcp-name': 'locate' };
    const accepted = await post(serving, locate('us, west'), { ...base, 'mcp-param-region': 'us, west' });
    expect(accepted.status).toBe(200);
    expect(accepted.json.result.content[0].text).toBe('us, west');

    const repeated = await post(serving, locate('us, west'), { ...base, 'mcp-param-region': ['us', 'west'] });
    expect(repeated.status).toBe(400);
    expect(repeated.json.error.code).toBe(-32020);
    expect(repeated.json.error.message).toMatch(/Mcp-Param-Region header is repeated/);
  });

  it('refuses repeated Mcp-Method and Mcp-Name headers, whatever their values (Node)', async () => {
    const serving = await serveHttp(regionServer());
    servings.push(serving);
    const region = { 'mcp-param-region': 'eu' };
    const method = await post(serving, locate('eu'), {
      ...region,
      'mcp-method': ['tools/call', 'tools/call'],
      'mcp-name': 'locate',
    });
    expect(method.status).toBe(400);
    expect(method.json.error.message).toMatch(/Mcp-Method header is repeated/);
    const name = await post(serving, locate('eu'), {
      ...region,
      'mcp-method': 'tools/call',
      'mcp-name': ['locate', 'locate'],
    });
    expect(name.status).toBe(400);
    expect(name.json.error.message).toMatch(/Mcp-Name header is repeated/);
  });

  it('web-standard path: a repetition whose joined value differs from the body is refused', async () => {
    // `Headers` joins repetitions with ", " before the handler sees them (see server-headers.ts).
    const handler = createMcpHttpHandler(regionServer());
    const peer = new HttpPeer(handler);
    const headers = new Headers({ 'mcp-param-region': 'eu' });
    headers.append('mcp-param-region', 'eu');
    const answer = await peer.modern(
      1,
      'tools/call',
      { name: 'locate', arguments: { region: 'eu' } },
      { headers: { 'mcp-param-region': headers.get('mcp-param-region')! } },
    );
    expect(answer.status).toBe(400);
    expect(answer.json.error.code).toBe(-32020);
    await handler.close({ drainTimeoutMs: 0 });
  });
});
