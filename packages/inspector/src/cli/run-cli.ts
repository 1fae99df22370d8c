/**
 * `mcpengine inspect --cli`: one method against one server, the result as JSON on stdout, and the official
 * Inspector CLI's exit-code classes, so that scripts written for it keep working:
 *
 *   0 ok · 1 usage (or any other failure) · 3 auth required (401/403) · 4 unreachable · 5 tool error
 *   (`isError: true`, an unknown tool, or any JSON-RPC error answering `tools/call`)
 *
 * stdout carries the result (with `--format json`: the envelope `{result[, schemaFindings]}`); on failure stdout
 * is empty and stderr ends with a one-line JSON error envelope.
 */
import { REVISIONS, type Revision } from '@mcpengine/oracle';
import {
  authStatusOf,
  ConnectFailure,
  DEFAULT_CONNECT_TIMEOUT_MS,
  openInspection,
  serverErrorOf,
  type Inspection,
  type JsonObject,
} from '../core/connection.js';
import { loadSession, saveSession, sessionOf, SessionFileError } from '../core/session-file.js';
import { describeTarget, type Target } from '../core/target.js';
import { Timeline } from '../core/timeline.js';
import { diffSessions } from '../core/diff.js';
import {
  flagValue,
  hasFlag,
  promptArguments,
  singleTargetOf,
  toolArguments,
  UsageError,
  type RawArguments,
} from './arguments.js';

export const EXIT = { ok: 0, usage: 1, auth: 3, unreachable: 4, toolError: 5 } as const;
type ExitClass = keyof typeof EXIT;

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly cwd: string;
  readonly signal: AbortSignal;
}

export const CLI_METHODS = [
  'initialize',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/read',
  'resources/templates/list',
  'prompts/list',
  'prompts/get',
  'logging/setLevel',
  'tasks/list',
  'tasks/get',
  'tasks/result',
  'tasks/cancel',
] as const;
type CliMethod = (typeof CLI_METHODS)[number];

const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** A failure with its exit class, reported on stderr. */
class Failure extends Error {
  readonly exitClass: ExitClass;
  constructor(exitClass: ExitClass, message: string) {
    super(message);
    this.exitClass = exitClass;
  }
}

interface Plan {
  readonly method: CliMethod;
  readonly target: Target;
  readonly revision: Revision | 'auto';
  readonly json: boolean;
  readonly record: string | undefined;
  readonly connectTimeoutMs: number;
  readonly requestTimeoutMs: number | undefined;
  readonly run: (
    inspection: Inspection,
    signal: AbortSignal,
  ) => Promise<{ result: JsonObject; toolError?: string; outputFindings?: string[] }>;
}

export async function runInspectCli(args: RawArguments, io: CliIo): Promise<number> {
  if (hasFlag(args, '--diff')) return runDiff(args, io);
  let plan: Plan;
  try {
    plan = planOf(args, io.cwd);
  } catch (error) {
    if (error instanceof UsageError) return fail(io, 'usage', error.message);
    throw error;
  }
  const timeline = new Timeline(plan.revision === 'auto' ? {} : { revision: plan.revision });
  let inspection: Inspection | undefined;
  try {
    inspection = await openInspection(plan.target, {
      revision: plan.revision,
      timeline,
      connectTimeoutMs: plan.connectTimeoutMs,
      ...(plan.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: plan.requestTimeoutMs }),
    });
    const { result, toolError, outputFindings } = await plan.run(inspection, io.signal);
    // Wire messages against the official schema, and structuredContent against the tool's outputSchema.
    const findings = [
      ...timeline.violations.flatMap((entry) => entry.violations ?? []),
      ...(outputFindings ?? []),
    ];
    for (const finding of findings) io.stderr(`mcpengine inspect: warning: ${finding.split('\n')[0]}\n`);
    io.stdout(
      `${JSON.stringify(plan.json ? { result, ...(findings.length === 0 ? {} : { schemaFindings: findings }) } : result, null, 2)}\n`,
    );
    if (toolError !== undefined) return fail(io, 'toolError', toolError);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof ConnectFailure) {
      const stderr = timeline.entries
        .filter((entry) => entry.kind === 'stderr')
        .map((entry) => (entry.kind === 'stderr' ? entry.text : ''))
        .join('')
        .trim();
      return fail(
        io,
        error.reason === 'auth' ? 'auth' : 'unreachable',
        error.message + (stderr === '' ? '' : `\nserver stderr:\n${stderr.slice(-4_000)}`),
      );
    }
    if (error instanceof Failure) return fail(io, error.exitClass, error.message);
    const remote = serverErrorOf(error);
    if (remote !== undefined) {
      const message = `the server answered ${plan.method} with error ${remote.code}: ${remote.message}`;
      return fail(io, plan.method === 'tools/call' ? 'toolError' : 'usage', message);
    }
    // A request answered 401/403 after the session opened (a token without the scope a tool needs, an expired
    // one): authorization, not reachability.
    const status = authStatusOf(error);
    if (status !== undefined)
      return fail(
        io,
        'auth',
        `${plan.method} needs authorization (HTTP ${status}): ${(error as Error).message}`,
      );
    // The connection broke after it opened: the server died or stopped answering.
    return fail(io, 'unreachable', `${plan.method} failed: ${(error as Error).message}`);
  } finally {
    await inspection?.close();
    if (plan.record !== undefined)
      await saveSession(
        plan.record,
        sessionOf(timeline, {
          target: describeTarget(plan.target),
          ...(inspection === undefined ? {} : { server: inspection.server as JsonObject }),
        }),
      ).catch((error: unknown) => io.stderr(`cannot write --record file: ${(error as Error).message}\n`));
  }
}

function fail(io: CliIo, exitClass: ExitClass, message: string): number {
  const code = EXIT[exitClass];
  io.stderr(`mcpengine inspect: ${message}\n`);
  io.stderr(
    `${JSON.stringify({ error: { exitCode: code, class: exitClass, message: message.split('\n')[0] } })}\n`,
  );
  return code;
}

function planOf(args: RawArguments, cwd: string): Plan {
  const method = flagValue(args, '--method');
  if (method === undefined) throw new UsageError(`--cli needs --method (${CLI_METHODS.join(', ')})`);
  if (!(CLI_METHODS as readonly string[]).includes(method))
    throw new UsageError(`--method must be one of ${CLI_METHODS.join(', ')}, got ${method}`);
  const target = singleTargetOf(args, cwd);
  if (target === undefined)
    throw new UsageError(
      'name a server: a command (node server.js), --stdio "<command line>", --url <endpoint> or --config <file> [--server <name>]',
    );
  const format = flagValue(args, '--format');
  if (format !== undefined && format !== 'json' && format !== 'text')
    throw new UsageError(`--format must be json or text, got ${format}`);
  const revision = flagValue(args, '--revision') ?? 'auto';
  if (revision !== 'auto' && !(REVISIONS as readonly string[]).includes(revision))
    throw new UsageError(`--revision must be auto or one of ${REVISIONS.join(', ')}, got ${revision}`);
  const connectTimeoutMs = milliseconds(args, '--connect-timeout') ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const requestTimeoutMs = milliseconds(args, '--timeout');
  return {
    method: method as CliMethod,
    target,
    revision: revision as Revision | 'auto',
    json: format === 'json',
    record: flagValue(args, '--record'),
    connectTimeoutMs,
    requestTimeoutMs,
    run: runnerFor(method as CliMethod, args),
  };
}

function milliseconds(args: RawArguments, name: string): number | undefined {
  const value = flagValue(args, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) <= 0)
    throw new UsageError(`${name} needs a positive number of milliseconds, got ${JSON.stringify(value)}`);
  return Number(value);
}

function required(args: RawArguments, name: string, method: string): string {
  const value = flagValue(args, name);
  if (value === undefined) throw new UsageError(`--method ${method} needs ${name}`);
  return value;
}

/** Checks the method's own arguments now (usage errors before connecting) and returns what to run. */
function runnerFor(method: CliMethod, args: RawArguments): Plan['run'] {
  const cursor = flagValue(args, '--cursor');
  const list = (key: string) => async (inspection: Inspection, signal: AbortSignal) => ({
    result:
      cursor === undefined
        ? await inspection.listAll(method, key, { signal })
        : await inspection.request(method, { cursor }, { signal }),
  });
  switch (method) {
    case 'initialize':
      return async (inspection) => ({
        result: { protocolVersion: inspection.revision, era: inspection.era, ...inspection.server },
      });
    case 'tools/list':
      return list('tools');
    case 'resources/list':
      return list('resources');
    case 'resources/templates/list':
      return list('resourceTemplates');
    case 'prompts/list':
      return list('prompts');
    case 'tasks/list':
      return list('tasks');
    case 'tools/call': {
      const name = required(args, '--tool-name', method);
      const toolArgs = toolArguments(args);
      const asTask = hasFlag(args, '--task');
      return async (inspection, signal) => {
        const result = await inspection.callTool(name, toolArgs, { signal, asTask });
        if (result['isError'] === true)
          return { result, toolError: `tool ${name} reported an error (isError: true)` };
        const outputFindings = asTask ? [] : await inspection.outputFindings(name, result);
        return outputFindings.length === 0 ? { result } : { result, outputFindings };
      };
    }
    case 'resources/read': {
      const uri = required(args, '--uri', method);
      return async (inspection, signal) => ({
        result: await inspection.request(method, { uri }, { signal }),
      });
    }
    case 'prompts/get': {
      const name = required(args, '--prompt-name', method);
      const promptArgs = promptArguments(args);
      return async (inspection, signal) => ({
        result: await inspection.request(method, { name, arguments: promptArgs }, { signal }),
      });
    }
    case 'logging/setLevel': {
      const level = required(args, '--log-level', method);
      if (!LOG_LEVELS.includes(level))
        throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}, got ${level}`);
      return async (inspection, signal) => {
        if (inspection.era === 'modern')
          throw new Failure(
            'usage',
            'logging/setLevel does not exist in the modern era (2026-07-28 asks for a log level per request); use --revision 2025-11-25 or older',
          );
        return { result: await inspection.request(method, { level }, { signal }) };
      };
    }
    case 'tasks/get':
    case 'tasks/cancel': {
      const taskId = required(args, '--task-id', method);
      return async (inspection, signal) => ({
        result: await inspection.request(method, { taskId }, { signal }),
      });
    }
    case 'tasks/result': {
      const taskId = required(args, '--task-id', method);
      return async (inspection, signal) => {
        const result = await inspection.awaitTask(taskId, { signal });
        return result['isError'] === true
          ? { result, toolError: `task ${taskId} ended with a tool error (isError: true)` }
          : { result };
      };
    }
  }
}

/** `--diff <before> --diff <after>`: the tools added, removed and changed between two recorded sessions. */
async function runDiff(args: RawArguments, io: CliIo): Promise<number> {
  const files = args.flags.get('--diff');
  if (!Array.isArray(files) || files.length !== 2)
    return fail(io, 'usage', '--diff needs two session files: --diff <before.jsonl> --diff <after.jsonl>');
  try {
    const [before, after] = await Promise.all(files.map((file) => loadSession(file)));
    io.stdout(`${JSON.stringify(diffSessions(before!.entries, after!.entries), null, 2)}\n`);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof SessionFileError || (error as NodeJS.ErrnoException).code !== undefined)
      return fail(io, 'usage', (error as Error).message);
    throw error;
  }
}
