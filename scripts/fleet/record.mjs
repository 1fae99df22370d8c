#!/usr/bin/env node
/**
 * Re-records the cassettes of fleet servers: `npm run fleet:record -- <server>...` (default: every server with
 * a `mock` in its fleet.json). For each server it starts
 *   - Prism on 127.0.0.1:47010 (or fleet.json's mock.port), mocking the server's vendor description (static
 *     examples, request validation), and one more Prism per entry of fleet.json's `extraMocks` (its port);
 *     with `mock.refDepth` (and `mock.paths`), Prism serves the generator's reduced copy of the description:
 *     references inlined that deep, only those paths (Prism 5.14 never starts on Stripe's full description);
 *     with `mock.dropResponseHeaders` or `mock.parseStringExamples`, a copy fixed for Prism (see mockCopy);
 *   - an error upstream on 127.0.0.1:47011 for edge-case tests: a path containing "forbidden" answers 403 with a
 *     Google-style error body, "rate-limited" answers 429 with `Retry-After: 120`, anything else 500;
 * deletes the server's cassettes, runs `mcpengine test` on its test folder (mode auto records the missing
 * cassettes), and stops both. Tests in `npm test` only replay: no Prism, no network.
 * A server with `apps: true` also re-records the cassette of its MCP Apps view (test/apps/cassette.json): the
 * inspector's end-to-end test of the fleet's views, run with FLEET_APPS_RECORD=<server> while Prism is up.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const PRISM = join(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js');
// The generator's reduced copy for descriptions Prism cannot start on (Stripe's web of references).
const { prismCopy } = await import(join(ROOT, 'packages/generator/dist/corpus/prism.js'));
const CLI = join(ROOT, 'packages/cli/dist/main.js');
const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs');
const APPS_E2E = 'packages/inspector/src/web/apps-host/fleet-apps.test.ts';

const wanted = process.argv.slice(2);
const servers = readdirSync(join(ROOT, 'servers'))
  .filter((name) => existsSync(join(ROOT, 'servers', name, 'fleet.json')))
  .map((name) => ({ name, dir: join(ROOT, 'servers', name) }))
  .map((s) => ({ ...s, manifest: JSON.parse(readFileSync(join(s.dir, 'fleet.json'), 'utf8')) }))
  .filter((s) => s.manifest.mock !== undefined && (wanted.length === 0 || wanted.includes(s.name)));

function errorUpstream() {
  const server = createServer((req, res) => {
    req.resume();
    const url = req.url ?? '/';
    if (url.includes('forbidden')) {
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: {
            code: 403,
            message: 'User does not have sufficient permission for site.',
            status: 'PERMISSION_DENIED',
          },
        }),
      );
    } else if (url.includes('rate-limited')) {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '120' });
      res.end(
        JSON.stringify({ error: { code: 429, message: 'Quota exceeded.', status: 'RESOURCE_EXHAUSTED' } }),
      );
    } else {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 500, message: 'Backend error.', status: 'INTERNAL' } }));
    }
  });
  return new Promise((done) => server.listen(47011, '127.0.0.1', () => done(server)));
}

/**
 * A copy of a description fixed for Prism, as fleet.json's `mock` asks:
 * - `dropResponseHeaders`: without the response headers the description declares. Descriptions converted from
 *   Postman collections (Notion's) carry the recorded headers of their examples, `Content-Length` next to
 *   `Transfer-Encoding: chunked` among them; Prism sends them back, and an HTTP client must refuse that answer.
 * - `parseStringExamples`: JSON response examples written as strings (Atlassian's description has
 *   `"example": "{\"id\": …}"`) parsed into the values they spell, which the API answers with.
 */
function mockCopy(description, mock) {
  const doc = JSON.parse(readFileSync(description, 'utf8'));
  for (const item of Object.values(doc.paths ?? {}))
    for (const operation of Object.values(item ?? {}))
      for (const response of Object.values(operation?.responses ?? {})) {
        if (mock.dropResponseHeaders === true) delete response.headers;
        if (mock.parseStringExamples === true)
          for (const media of Object.values(response?.content ?? {})) {
            if (typeof media?.example !== 'string' || !/^\s*[[{]/.test(media.example)) continue;
            try {
              media.example = JSON.parse(media.example);
            } catch {
              // Not JSON after all: left as written.
            }
          }
      }
  const dir = mkdtempSync(join(tmpdir(), 'fleet-prism-'));
  const path = join(dir, basename(description));
  writeFileSync(path, JSON.stringify(doc));
  return path;
}

function startPrism(mock, cwd, port) {
  let description =
    mock.refDepth === undefined ? mock.prism : prismCopy(join(cwd, mock.prism), mock.refDepth, mock.paths);
  if (mock.dropResponseHeaders === true || mock.parseStringExamples === true)
    description = mockCopy(resolve(cwd, description), mock);
  const prism = spawn(
    process.execPath,
    ['--max-old-space-size=4096', PRISM, 'mock', description, '--port', String(port), '--host', '127.0.0.1'],
    {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  return new Promise((done, fail) => {
    const timer = setTimeout(() => {
      prism.kill('SIGTERM');
      fail(new Error(`Prism did not start: ${output.slice(-2000)}`));
    }, 180_000);
    const watch = (chunk) => {
      output += chunk.toString();
      if (output.includes('Prism is listening')) {
        clearTimeout(timer);
        done(prism);
      }
    };
    prism.stdout.on('data', watch);
    prism.stderr.on('data', watch);
    prism.once('exit', () => {
      clearTimeout(timer);
      fail(new Error(`Prism exited: ${output.slice(-2000)}`));
    });
  });
}

let failed = false;
const upstream = await errorUpstream();
try {
  for (const { name, dir, manifest } of servers) {
    console.log(`${name}: recording against Prism (${manifest.mock.prism}) and the error upstream`);
    rmSync(join(dir, manifest.tests, 'cassettes'), { recursive: true, force: true });
    // A server over several vendor descriptions (Twilio's products) has one Prism per description.
    const mocks = [{ ...manifest.mock, port: manifest.mock.port ?? 47010 }, ...(manifest.extraMocks ?? [])];
    const prisms = [];
    try {
      for (const mock of mocks) prisms.push(await startPrism(mock, dir, mock.port));
      // Asynchronous: the error upstream answers from this process while the tests run.
      const run = spawn(process.execPath, [CLI, 'test', manifest.tests], { cwd: dir, stdio: 'inherit' });
      const status = await new Promise((done) => run.once('exit', done));
      if (status !== 0) failed = true;
      if (manifest.apps === true) {
        const e2e = spawn(process.execPath, [VITEST, 'run', APPS_E2E, '-t', `${name}:`], {
          cwd: ROOT,
          stdio: 'inherit',
          env: { ...process.env, FLEET_APPS_RECORD: name },
        });
        if ((await new Promise((done) => e2e.once('exit', done))) !== 0) failed = true;
      }
    } finally {
      for (const prism of prisms) prism.kill('SIGTERM');
    }
  }
} finally {
  upstream.close();
}
process.exit(failed ? 1 : 0);
