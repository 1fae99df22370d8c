/**
 * Cassettes: a server's outbound HTTP (fetch and node:http, on MCPEngine and on the official SDK) recorded
 * against a real upstream, secrets redacted at record time, replayed with the upstream gone and no credentials,
 * and an unrecorded request failing with a clear message.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseYamlSuite } from '../format/load-yaml.js';
import { runSuite } from '../run/run-suite.js';
import { CORPUS_DIR } from '../test/corpus.js';
import { redactBody, type CassetteFile } from './format.js';

const SECRET = 'sk-live-0123456789abcdef';
let upstream: Server;
let base: string;
const seen: string[] = [];

beforeAll(async () => {
  upstream = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const city = new URL(req.url ?? '/', 'http://x').searchParams.get('city');
    res.setHeader('content-type', 'application/json');
    res.setHeader('set-cookie', `session=${SECRET}`);
    res.end(JSON.stringify({ city, sky: city === 'Oslo' ? 'snow' : 'sunny', echo: SECRET }));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const address = upstream.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
});

afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

function suite(server: string, cassette: string, mode: string, withKey: boolean, city = 'Oslo') {
  return parseYamlSuite(
    join(CORPUS_DIR, 'api', `${server}.mcp.yaml`),
    [
      'server:',
      `  command: ${JSON.stringify(process.execPath)}`,
      `  args: [${JSON.stringify(join(CORPUS_DIR, 'api', `${server}.mjs`))}]`,
      `  env: { API_BASE: ${JSON.stringify(base)}${withKey ? `, API_KEY: ${SECRET}` : ''} }`,
      `  cassette: { file: ${JSON.stringify(cassette)}, mode: ${mode}, secrets: [API_KEY] }`,
      'tests:',
      `  - name: weather in ${city}`,
      '    tool: weather',
      `    arguments: { city: ${city} }`,
      `    expect: { text: '${city}: ${city === 'Oslo' ? 'snow' : 'sunny'}' }`,
      '',
    ].join('\n'),
  );
}

describe.each(['engine-fetch', 'sdk-http'])('cassettes: %s', (server) => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpengine-cassette-test-'));
  const file = join(dir, `${server}.json`);

  it('record: the real upstream answers, the exchange is saved with secrets redacted', async () => {
    const before = seen.length;
    const result = await runSuite(suite(server, file, 'record', true));
    expect(result.tests.map((t) => [t.status, ...t.failures])).toEqual([['passed']]);
    expect(seen.length).toBe(before + 1);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(SECRET);
    const cassette = JSON.parse(text) as CassetteFile;
    expect(cassette.interactions).toHaveLength(1);
    const { request, response } = cassette.interactions[0]!;
    expect(request.url).toMatch(/\/weather\?city=Oslo/);
    expect(request.headers['authorization'] ?? request.headers['x-api-key']).toBe('[redacted]');
    expect(response.headers['set-cookie']).toBe('[redacted]');
    expect(JSON.parse(response.body)).toEqual({ city: 'Oslo', sky: 'snow', echo: '{{API_KEY}}' });
  });

  it('replay: no upstream call and no credentials needed', async () => {
    const before = seen.length;
    const result = await runSuite(suite(server, file, 'replay', false));
    expect(result.tests.map((t) => [t.status, ...t.failures])).toEqual([['passed']]);
    expect(seen.length).toBe(before);
  });

  it('replay: an unrecorded request fails the test, naming the request and the cassette', async () => {
    const before = seen.length;
    const result = await runSuite(suite(server, file, 'replay', false, 'Paris'));
    const [test] = result.tests;
    expect(test!.status).toBe('failed');
    expect(test!.failures.join('\n')).toMatch(
      new RegExp(
        `the cassette has no response for (GET|POST) ${base.replace(/[.]/g, '\\.')}/weather\\?city=Paris.* \\(${file.replace(/[.]/g, '\\.')}\\)`,
      ),
    );
    expect(seen.length).toBe(before);
  });
});

describe('cassette redaction of JSON members', () => {
  it('redacts string and number values of secret-looking names, keeps booleans and null (their type)', () => {
    const body = JSON.stringify({
      apiKey: 'abc123',
      pin: { password: 1234 },
      usedPrivateCredentials: false,
      sessionToken: null,
      name: 'kept',
    });
    expect(JSON.parse(redactBody(body, 'application/json', {}))).toEqual({
      apiKey: '[redacted]',
      pin: { password: '[redacted]' },
      usedPrivateCredentials: false,
      sessionToken: null,
      name: 'kept',
    });
  });
});
