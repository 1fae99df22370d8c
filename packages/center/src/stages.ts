/**
 * The pipeline's stages, in order. Each runs a factory tool (or reads the files the fleet convention names) and
 * returns a verdict with the evidence it was built from; nothing is typed by hand. A stage sees the outcomes of
 * the stages before it in the same run (the review reads the validator's and the test runner's).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import {
  runAppsValidation,
  runValidation,
  StdioTarget,
  StreamableHttpTarget,
  type Revision,
  type Target,
  type ValidationReport,
} from '@mcpengine/validator';
import { findTestFiles, runFiles } from '@mcpengine/test-runner';
import { advertisingUiTransport } from '@mcpengine/inspector';
import {
  CLIENTS,
  hostPlatform,
  pathContext,
  resolveTarget,
  runAdd,
  type Handshake,
} from '@mcpengine/installer';
import type { StageVerdict } from '@mcpengine/store';
import type { ServerEntry } from './fleet.js';
import { inspectServer, toolHash, toolsHash, type Inspection } from './inspect.js';
import { commandLaunch, freePort, stdioLaunch } from './launch.js';
import { reviewChecks, scoreOf } from './review/checks.js';
import { validateServerJson } from './server-json.js';
import { countTokens } from './tokens.js';

export const STAGES = [
  'described',
  'generated',
  'builds',
  'validates',
  'tests',
  'reviewed',
  'packaged',
  'installable',
] as const;
export type StageName = (typeof STAGES)[number];

export interface StageOutcome {
  readonly verdict: StageVerdict;
  readonly summary: string;
  readonly score: number | null;
  readonly evidence: unknown;
}

export interface StageContext {
  readonly server: ServerEntry;
  readonly signal: AbortSignal;
  /** Outcomes of the earlier stages of this run for this server (resumed ones included). */
  readonly earlier: ReadonlyMap<string, StageOutcome>;
  /** The other servers' tools as last reviewed, for shadowing checks. */
  readonly otherTools: () => Promise<{ server: string; name: string; description: string }[]>;
  /** Time limits, smaller in tests. */
  readonly timeoutMs: number;
  /** Validate only these revisions (default: every revision the server negotiates). */
  readonly revisions?: readonly Revision[];
}

const pass = (summary: string, evidence: unknown, score: number | null = null): StageOutcome => ({
  verdict: 'pass',
  summary,
  score,
  evidence,
});
const fail = (summary: string, evidence: unknown, score: number | null = null): StageOutcome => ({
  verdict: 'fail',
  summary,
  score,
  evidence,
});
const skip = (summary: string): StageOutcome => ({ verdict: 'skip', summary, score: null, evidence: null });

/** Which stages a failed stage makes pointless (they would only repeat its failure). */
export const NEEDS: Partial<Record<StageName, StageName>> = {
  validates: 'builds',
  tests: 'builds',
  reviewed: 'builds',
  installable: 'builds',
};

function described({ server }: StageContext): StageOutcome {
  if (server.manifestError !== undefined) return fail(server.manifestError, { error: server.manifestError });
  const m = server.manifest;
  const problems: string[] = [];
  if (server.kind === 'fleet') {
    if (m.name !== server.name)
      problems.push(`name ${JSON.stringify(m.name)} is not the folder name ${server.name}`);
    if (typeof m.title !== 'string' || m.title === '') problems.push('no title');
    if (typeof m.description !== 'string' || m.description.length < 10)
      problems.push('no one-sentence description');
    if (!['generated', 'curated', 'handwritten'].includes(String(m.origin)))
      problems.push(`origin ${JSON.stringify(m.origin)} is not generated, curated or handwritten`);
  }
  if (m.stdio === undefined && m.url === undefined) problems.push('neither a stdio command nor a URL');
  const evidence = { manifest: m, problems };
  return problems.length === 0
    ? pass(`${server.kind === 'fleet' ? 'fleet.json' : 'external server'} complete`, evidence)
    : fail(problems.join('; '), evidence);
}

function generated({ server }: StageContext): StageOutcome {
  const m = server.manifest;
  if (server.kind === 'external') return skip('external server: not made here');
  if (m.origin === 'generated') {
    if (m.openapi === undefined)
      return fail('origin generated but no openapi description named', { origin: m.origin });
    const file = resolve(server.dir, m.openapi);
    if (!existsSync(file)) return fail(`the OpenAPI description ${m.openapi} is missing`, { file });
    const record = join(server.dir, 'mcpengine.generated.json');
    return pass(`generated from ${m.openapi}`, {
      origin: m.origin,
      openapi: m.openapi,
      bytes: statSync(file).size,
      generatedRecord: existsSync(record)
        ? 'mcpengine.generated.json present'
        : 'no mcpengine.generated.json',
    });
  }
  const sources = join(server.dir, 'src');
  if (!existsSync(sources)) return fail(`origin ${m.origin ?? '?'} but no src/ folder`, { origin: m.origin });
  return pass(`${m.origin ?? 'handwritten'}: sources in src/`, { origin: m.origin });
}

/** Paths a command line names (relative words with a file extension), which must exist once built. */
function namedFiles(line: string, dir: string): string[] {
  return line
    .split(/\s+/)
    .filter((word) => /^[\w./-]+\.(m?js|cjs|py)$/.test(word))
    .map((word) => (isAbsolute(word) ? word : join(dir, word)));
}

/** The newest file under `dir` (recursively, `node_modules` aside), or undefined when there is none. */
function newestFile(dir: string): { file: string; mtimeMs: number } | undefined {
  if (!existsSync(dir)) return undefined;
  let newest: { file: string; mtimeMs: number } | undefined;
  const walk = (folder: string, depth: number): void => {
    if (depth > 12) return;
    for (const item of readdirSync(folder, { withFileTypes: true })) {
      if (item.name === 'node_modules' || item.name.startsWith('.')) continue;
      const path = join(folder, item.name);
      if (item.isDirectory()) walk(path, depth + 1);
      else if (item.isFile()) {
        const mtimeMs = statSync(path).mtimeMs;
        if (newest === undefined || mtimeMs > newest.mtimeMs) newest = { file: path, mtimeMs };
      }
    }
  };
  walk(dir, 0);
  return newest;
}

/**
 * Built, and from the current sources: every file the command names exists, and no source under `src/` (or the
 * App views under `view/`) is newer than the newest build output next to the entry (its folder, or the
 * `*.tsbuildinfo` the incremental build rewrites) — a build older than its sources is a stale build.
 */
function builds({ server }: StageContext): StageOutcome {
  const m = server.manifest;
  if (server.kind === 'external')
    return pass('external server: nothing to build', { url: m.url, stdio: m.stdio });
  if (m.stdio === undefined) return fail('no stdio command', {});
  const files = namedFiles(m.stdio, server.dir);
  const missing = files.filter((file) => !existsSync(file));
  const relative = (file: string) => file.slice(server.dir.length + 1);
  const evidence: Record<string, unknown> = {
    command: m.stdio,
    files: files.map((file) => ({ file, exists: existsSync(file) })),
  };
  if (missing.length > 0) return fail(`not built: ${missing.map(relative).join(', ')} missing`, evidence);
  const inServer = files.filter((file) => file.startsWith(`${server.dir}/`));
  if (inServer.length > 0) {
    const outputs = [
      ...new Set(inServer.map((file) => join(server.dir, relative(file).split('/')[0]!))),
    ].flatMap((folder) => {
      const found = statSync(folder).isDirectory()
        ? newestFile(folder)
        : { file: folder, mtimeMs: statSync(folder).mtimeMs };
      return found === undefined ? [] : [found];
    });
    for (const name of readdirSync(server.dir))
      if (name.endsWith('.tsbuildinfo'))
        outputs.push({ file: join(server.dir, name), mtimeMs: statSync(join(server.dir, name)).mtimeMs });
    const built = outputs.sort((a, b) => b.mtimeMs - a.mtimeMs)[0];
    const sources = ['src', 'view']
      .map((folder) => newestFile(join(server.dir, folder)))
      .filter((found) => found !== undefined)
      .sort((a, b) => b.mtimeMs - a.mtimeMs)[0];
    evidence['newestOutput'] = built && {
      file: relative(built.file),
      at: new Date(built.mtimeMs).toISOString(),
    };
    evidence['newestSource'] = sources && {
      file: relative(sources.file),
      at: new Date(sources.mtimeMs).toISOString(),
    };
    // A second of slack: file systems round times, and a build writes its outputs right after reading.
    if (built !== undefined && sources !== undefined && sources.mtimeMs > built.mtimeMs + 1000)
      return fail(
        `stale build: ${relative(sources.file)} is newer than the build output (${relative(built.file)}); run npm run build`,
        evidence,
      );
  }
  return pass(
    files.length === 0
      ? 'command has no file to check'
      : `built: ${files.length} entry file(s) present, not older than the sources`,
    evidence,
  );
}

interface TransportValidation {
  readonly transport: 'stdio' | 'streamable-http';
  readonly exitCode: number;
  readonly durationMs: number;
  readonly notes: readonly string[];
  readonly revisions: readonly {
    revision: string;
    must: { passed: number; failed: number; notRun: number };
    failures: { id: string; message: string }[];
  }[];
  readonly securityWarnings: readonly string[];
}

function summarizeReport(
  transport: TransportValidation['transport'],
  report: ValidationReport,
): TransportValidation {
  return {
    transport,
    exitCode: report.exitCode,
    durationMs: report.durationMs,
    notes: report.notes.slice(0, 10),
    revisions: report.revisions.map((revision) => ({
      revision: revision.revision,
      must: { passed: revision.must.passed, failed: revision.must.failed, notRun: revision.must.notRun },
      failures: revision.requirements
        .filter((verdict) => verdict.verdict === 'fail' && verdict.requirement.level === 'MUST')
        .slice(0, 20)
        .map((verdict) => ({ id: verdict.requirement.id, message: verdict.message.slice(0, 300) })),
    })),
    securityWarnings: [
      ...new Set(
        report.revisions.flatMap((revision) =>
          revision.advisory
            .filter((advisory) => advisory.verdict === 'warning' && advisory.check.area === 'security')
            .map((advisory) => `${advisory.check.title}: ${advisory.message}`.slice(0, 300)),
        ),
      ),
    ],
  };
}

async function validateTarget(
  target: Target,
  timeoutMs: number,
  revisions: readonly Revision[] | undefined,
): Promise<ValidationReport> {
  return runValidation({
    target,
    ...(revisions === undefined ? {} : { revisions }),
    totalTimeoutMs: timeoutMs * 6,
    settings: {
      requestTimeoutMs: Math.min(timeoutMs, 10_000),
      probeTimeoutMs: timeoutMs,
      callTools: new Set(),
      callAllTools: false,
    },
  });
}

/** Starts a server's HTTP command on a free port and waits until it accepts connections. */
async function startHttp(
  server: ServerEntry,
  timeoutMs: number,
): Promise<{ url: string; stop: () => void; output: () => string }> {
  const port = await freePort();
  const launch = commandLaunch(server, server.manifest.http!.replaceAll('{port}', String(port)));
  const child = spawn(launch.command, [...launch.args], {
    cwd: launch.cwd,
    env: { ...process.env, ...launch.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-2000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const stop = (): void => void child.kill('SIGTERM');
  const url = `http://127.0.0.1:${port}/mcp`;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    const up = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(1000) }).then(
      () => true,
      () => false,
    );
    if (up) return { url, stop, output: () => output };
    await new Promise((resolveWait) => setTimeout(resolveWait, 150));
  }
  stop();
  throw new Error(`the HTTP server did not listen on port ${port}: ${output.trim().slice(-500)}`);
}

async function validates(ctx: StageContext): Promise<StageOutcome> {
  const { server } = ctx;
  const results: TransportValidation[] = [];
  const problems: string[] = [];
  const launch = stdioLaunch(server);
  if (launch !== undefined)
    results.push(
      summarizeReport(
        'stdio',
        await validateTarget(
          new StdioTarget({ ...launch }, ctx.timeoutMs, server.manifest.stdio!),
          ctx.timeoutMs,
          ctx.revisions,
        ),
      ),
    );
  if (server.manifest.http !== undefined) {
    try {
      const http = await startHttp(server, ctx.timeoutMs);
      try {
        const target = new StreamableHttpTarget({
          url: http.url,
          headers: {},
          timeoutMs: Math.min(ctx.timeoutMs, 10_000),
        });
        results.push(
          summarizeReport('streamable-http', await validateTarget(target, ctx.timeoutMs, ctx.revisions)),
        );
      } finally {
        http.stop();
      }
    } catch (error) {
      problems.push(`streamable-http: ${(error as Error).message}`);
    }
  }
  if (server.manifest.url !== undefined) {
    const target = new StreamableHttpTarget({
      url: server.manifest.url,
      headers: {},
      timeoutMs: Math.min(ctx.timeoutMs, 10_000),
    });
    results.push(
      summarizeReport('streamable-http', await validateTarget(target, ctx.timeoutMs, ctx.revisions)),
    );
  }
  const totals = results
    .flatMap((result) => result.revisions)
    .reduce(
      (sum, revision) => ({
        passed: sum.passed + revision.must.passed,
        failed: sum.failed + revision.must.failed,
        notRun: sum.notRun + revision.must.notRun,
      }),
      { passed: 0, failed: 0, notRun: 0 },
    );
  const applicable = totals.passed + totals.failed + totals.notRun;
  const mustShare = applicable === 0 ? 0 : totals.passed / applicable;
  const revisions = results.flatMap((result) =>
    result.revisions.map((revision) => `${result.transport} ${revision.revision}`),
  );
  const evidence = { transports: results, problems, mustShare };
  const failedRuns = results.filter((result) => result.exitCode !== 0).length;
  if (results.length === 0 || applicable === 0)
    return fail(`nothing validated${problems.length > 0 ? `: ${problems.join('; ')}` : ''}`, evidence, 0);
  const summary = `${totals.passed}/${applicable} MUST passed over ${revisions.length} revision×transport (${revisions.join(', ')})`;
  return failedRuns > 0 || problems.length > 0 || totals.failed > 0
    ? fail(
        `${summary}; ${totals.failed} failed${problems.length > 0 ? `; ${problems.join('; ')}` : ''}`,
        evidence,
        mustShare,
      )
    : pass(summary, evidence, mustShare);
}

async function tests(ctx: StageContext): Promise<StageOutcome> {
  const { server } = ctx;
  if (server.kind === 'external' || server.manifest.tests === undefined)
    return skip('no test folder declared');
  const folder = resolve(server.dir, server.manifest.tests);
  if (!existsSync(folder)) return fail(`the test folder ${server.manifest.tests} is missing`, { folder });
  const files = findTestFiles([folder], server.dir);
  if (files.length === 0) return fail(`no *.mcp.yaml in ${server.manifest.tests}`, { folder });
  const summary = await runFiles(
    files.map((file) => ({ file, kind: 'yaml' as const })),
    { jobs: 1, signal: ctx.signal },
  );
  const failures = summary.suites.flatMap((suite) => [
    ...(suite.connectionError === undefined
      ? []
      : [`${suite.name}: cannot connect: ${suite.connectionError}`]),
    ...(suite.fileError === undefined ? [] : [`${suite.name}: ${suite.fileError}`]),
    ...suite.tests
      .filter((test) => test.status === 'failed')
      .map(
        (test) =>
          `${suite.name} › ${test.name}${test.revision === undefined ? '' : ` [${test.revision}]`}: ${test.failures.join('; ').slice(0, 300)}`,
      ),
  ]);
  const evidence = {
    files: files.map((file) => file.slice(server.dir.length + 1)),
    passed: summary.passed,
    failed: summary.failed,
    warned: summary.warned,
    skipped: summary.skipped,
    durationMs: summary.durationMs,
    failures: failures.slice(0, 50),
  };
  const total = summary.passed + summary.failed;
  const score = total === 0 ? 0 : summary.passed / total;
  const line = `${summary.passed} passed, ${summary.failed} failed in ${files.length} file(s)`;
  return summary.exitCode === 0
    ? pass(line, evidence, score)
    : fail(`${line}${failures[0] === undefined ? '' : `: ${failures[0]}`}`, evidence, score);
}

async function inspectEntry(
  ctx: StageContext,
  wrapTransport?: <T extends { send(message: string): void }>(transport: T) => T,
): Promise<Inspection> {
  const launch = stdioLaunch(ctx.server);
  const target = launch !== undefined ? { stdio: launch } : { url: ctx.server.manifest.url! };
  return inspectServer(target, {
    timeoutMs: ctx.timeoutMs,
    signal: ctx.signal,
    ...(wrapTransport === undefined ? {} : { wrapTransport: wrapTransport as never }),
  });
}

type AppsRuleVerdict = 'pass' | 'fail' | 'warn' | 'not-applicable';

/** The validator's MCP Apps rules against the server (`validate --apps`: read-only app tools are called). */
async function appsValidation(
  ctx: StageContext,
): Promise<{ id: string; level: string; verdict: AppsRuleVerdict; detail: string }[]> {
  const launch = stdioLaunch(ctx.server);
  const target =
    launch !== undefined
      ? new StdioTarget({ ...launch }, ctx.timeoutMs, ctx.server.manifest.stdio!)
      : new StreamableHttpTarget({
          url: ctx.server.manifest.url!,
          headers: {},
          timeoutMs: Math.min(ctx.timeoutMs, 10_000),
        });
  const report = await runAppsValidation({
    target,
    timeoutMs: ctx.timeoutMs,
    callTools: new Set(),
    callAll: false,
  });
  return report.rules.map((rule) => ({
    id: rule.id,
    level: rule.level,
    verdict: rule.verdict,
    detail: (
      rule.notRun ??
      rule.outcomes.find((outcome) => outcome.status === 'fail')?.detail ??
      rule.outcomes[0]?.detail ??
      ''
    ).slice(0, 300),
  }));
}

async function reviewed(ctx: StageContext): Promise<StageOutcome> {
  let inspection: Inspection;
  try {
    inspection = await inspectEntry(ctx);
  } catch (error) {
    return fail(
      `could not list the tools: ${(error as Error).message}`,
      { error: (error as Error).message },
      0,
    );
  }
  const validation = ctx.earlier.get('validates')?.evidence as
    { mustShare: number; transports: TransportValidation[] } | undefined;
  const testEvidence = ctx.earlier.get('tests');
  const testData =
    testEvidence?.verdict === 'skip'
      ? undefined
      : (testEvidence?.evidence as { passed: number; failed: number; failures: string[] } | undefined);
  const toolTokens = await Promise.all(
    inspection.tools.map(async (tool) => ({
      name: String(tool['name']),
      tokens: await countTokens(JSON.stringify(tool)),
    })),
  );
  const listTokens = await countTokens(JSON.stringify({ tools: inspection.tools }));
  // Apps: what a host that advertises MCP Apps is shown (UI metadata, app-only tools), a second look.
  let appsSeen: Inspection | undefined;
  let appsRules: { id: string; level: string; verdict: AppsRuleVerdict; detail: string }[] | undefined;
  if (ctx.server.manifest.apps === true) {
    appsSeen = await inspectEntry(ctx, advertisingUiTransport).catch(() => undefined);
    appsRules = await appsValidation(ctx).catch(() => undefined);
  }
  const checks = reviewChecks({
    tools: inspection.tools,
    resources: inspection.resources,
    apps: ctx.server.manifest.apps === true,
    ...(appsSeen === undefined ? {} : { appsSeen: { tools: appsSeen.tools, resources: appsSeen.resources } }),
    ...(appsRules === undefined ? {} : { appsRules }),
    ...(validation === undefined
      ? {}
      : {
          validation: {
            mustShare: validation.mustShare,
            failures: validation.transports.flatMap((t) =>
              t.revisions.flatMap((r) =>
                r.failures.map((f) => `${t.transport} ${r.revision} ${f.id}: ${f.message}`),
              ),
            ),
          },
          securityWarnings: [...new Set(validation.transports.flatMap((t) => t.securityWarnings))],
        }),
    ...(testData === undefined
      ? {}
      : { tests: { passed: testData.passed, failed: testData.failed, failures: testData.failures } }),
    otherTools: (await ctx.otherTools()).filter((tool) => tool.server !== ctx.server.name),
    listTokens,
    toolTokens,
  });
  const score = scoreOf(checks);
  const evidence = {
    revision: inspection.revision,
    era: inspection.era,
    server: { name: inspection.serverName, version: inspection.serverVersion },
    toolsHash: toolsHash(inspection.tools),
    tools: inspection.tools.map((tool, index) => ({
      name: String(tool['name']),
      description: typeof tool['description'] === 'string' ? tool['description'] : '',
      tokens: toolTokens[index]!.tokens,
      hash: toolHash(tool),
      annotated: tool['annotations'] !== undefined,
      outputSchema: tool['outputSchema'] !== undefined,
    })),
    listTokens,
    checks,
    score,
  };
  const line = `${score.earned}/${score.possible} points over ${checks.length} checks; ${inspection.tools.length} tools, ${listTokens} tokens`;
  // The review fails when the server is below half marks: a score that low means the server is not ready.
  return score.share >= 0.5 ? pass(line, evidence, score.share) : fail(line, evidence, score.share);
}

function packaged({ server }: StageContext): StageOutcome {
  if (server.kind === 'external') return skip('external server: packaged elsewhere');
  const file = resolve(server.dir, server.manifest.serverJson ?? 'server.json');
  if (!existsSync(file)) return fail(`${server.manifest.serverJson ?? 'server.json'} is missing`, { file });
  let document: unknown;
  try {
    document = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return fail(`server.json is not JSON: ${(error as Error).message}`, { file });
  }
  const problems = validateServerJson(document);
  const evidence = { file: file.slice(server.dir.length + 1), problems };
  return problems.length === 0
    ? pass('server.json valid against the MCP Registry schema', evidence)
    : fail(`server.json: ${problems.length} schema error(s): ${problems[0]}`, evidence);
}

/** Client formats verified at once by the installable stage (each verification starts the server). */
const INSTALL_VERIFY_JOBS = 3;

async function installable(ctx: StageContext): Promise<StageOutcome> {
  const { server } = ctx;
  const launch = stdioLaunch(server);
  if (launch === undefined && server.manifest.url === undefined) return fail('nothing to install', {});
  // Client files are written into one throwaway home and project, read back and verified, then deleted. The
  // clients' files are all different paths there, so they are written a few at a time without touching each
  // other's. One home for all also makes the clients' launches identical where the clients start the server the
  // same way (same command, environment and directory): such a launch completes its handshake once, and every
  // client whose entry reads back to it shares that handshake (`reused` in its output). Results keep the order.
  const transport = launch !== undefined ? 'stdio' : 'http';
  const clients = CLIENTS.filter((client) => client.transports.includes(transport));
  const home = mkdtempSync(join(tmpdir(), 'mcpengine-center-add-'));
  const env = {
    HOME: home,
    PATH: process.env['PATH'] ?? '',
    USERPROFILE: home,
    APPDATA: join(home, 'AppData'),
  };
  const scopeOf = (client: (typeof clients)[number]): 'user' | 'project' =>
    client.scopes.user !== undefined ? 'user' : 'project';
  const files = clients.map(
    (client) => resolveTarget(client, scopeOf(client), pathContext(hostPlatform(), env, home)).file,
  );
  if (new Set(files).size !== files.length)
    throw new Error(`two client formats write the same file: ${files.join(', ')}`);
  const handshakes = new Map<string, Promise<Handshake>>();
  const results: { client: string; scope: string; ok: boolean; output: string }[] = new Array(clients.length);
  const verify = async (index: number): Promise<void> => {
    const client = clients[index]!;
    const scope = scopeOf(client);
    let output = '';
    const code = await runAdd(
      {
        name: server.name,
        client: client.id,
        scope,
        platform: hostPlatform(),
        source:
          launch !== undefined
            ? {
                kind: 'command',
                argv: [
                  launch.command,
                  ...launch.args.map((arg) =>
                    /\.(m?js|cjs)$/.test(arg) && !isAbsolute(arg) ? join(launch.cwd, arg) : arg,
                  ),
                ],
              }
            : { kind: 'url', url: server.manifest.url! },
        env: { ...(server.manifest.env ?? {}) },
        headers: {},
        vars: {},
        yes: true,
        dryRun: false,
        verify: true,
        timeoutMs: ctx.timeoutMs,
      },
      {
        stdout: (text) => void (output += text),
        stderr: (text) => void (output += text),
        env,
        cwd: home,
        signal: ctx.signal,
        handshakes,
      },
    );
    results[index] = { client: client.id, scope, ok: code === 0, output: output.slice(-1500) };
  };
  try {
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(INSTALL_VERIFY_JOBS, clients.length) }, async () => {
        while (next < clients.length && !ctx.signal.aborted) await verify(next++);
      }),
    );
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  // Cancelled: the runner drops this outcome (the stage runs again on resume).
  if (ctx.signal.aborted) return fail('cancelled', {});
  const failed = results.filter((result) => !result.ok);
  const evidence = { clients: results, handshakes: handshakes.size };
  const line = `${results.length - failed.length}/${results.length} client formats verified (${handshakes.size} distinct launch${handshakes.size === 1 ? '' : 'es'} started)`;
  return failed.length === 0
    ? pass(line, evidence, 1)
    : fail(
        `${line}; failed: ${failed.map((result) => result.client).join(', ')}`,
        evidence,
        (results.length - failed.length) / Math.max(1, results.length),
      );
}

const RUNNERS: Record<StageName, (ctx: StageContext) => StageOutcome | Promise<StageOutcome>> = {
  described,
  generated,
  builds,
  validates,
  tests,
  reviewed,
  packaged,
  installable,
};

export async function runStage(stage: StageName, ctx: StageContext): Promise<StageOutcome> {
  const needed = NEEDS[stage];
  if (needed !== undefined && ctx.earlier.get(needed)?.verdict === 'fail')
    return skip(`skipped: ${needed} failed`);
  if (ctx.earlier.get('described')?.verdict === 'fail' && stage !== 'described')
    return skip('skipped: described failed');
  try {
    return await RUNNERS[stage](ctx);
  } catch (error) {
    // A tool that throws is a failed stage with the reason kept, never a crashed run.
    const message = error instanceof Error ? error.message : String(error);
    return fail(`${stage} could not run: ${message.slice(0, 300)}`, { error: message.slice(0, 4000) });
  }
}

export { inspectEntry };
