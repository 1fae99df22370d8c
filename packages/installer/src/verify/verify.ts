/**
 * `--verify`: reads the entry back from the file as written (or as it would be written, with --dry-run), starts
 * or connects it exactly as the client would, and completes the handshake. A failure says why, with the server's
 * last words on stderr.
 */
import type { ClientDescriptor } from '../clients/descriptor.js';
import { InstallerError } from '../model.js';
import { handshake, type Handshake, type HandshakeOptions } from './engine-client.js';
import { describeLaunch, launchOf, type Launch } from './launch.js';

export interface VerifyOptions extends Omit<HandshakeOptions, 'onStderr' | 'onWarning'> {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /**
   * Handshakes already made in this session, by launch. A launch identical to one verified before (same command,
   * arguments, whole environment and directory, or same URL, headers and transport) starts the same process the
   * same way, so its handshake is not repeated (the center verifies one server for every client format).
   */
  readonly handshakes?: Map<string, Promise<Handshake>>;
}

export interface Verified extends Handshake {
  readonly launched: string;
  readonly transport: 'stdio' | 'http' | 'sse';
  /** True when an identical launch was verified earlier in the session and its handshake is reused. */
  readonly reused?: boolean;
}

/** The identity of a launch: every field, object keys sorted (env order does not change the process). */
export function launchKey(launch: Launch): string {
  const sorted = (value: unknown): unknown =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
        )
      : value;
  return JSON.stringify(sorted(launch));
}

const STDERR_TAIL = 2_000;

export async function verifyEntry(
  client: ClientDescriptor,
  entry: unknown,
  options: VerifyOptions,
): Promise<Verified> {
  let spec;
  try {
    spec = client.read(entry);
  } catch (error) {
    throw new InstallerError(
      `verify: ${client.name} would not read this entry: ${(error as Error).message}`,
      1,
    );
  }
  const { launch, missing } = launchOf(client, spec, options.env, options.cwd);
  const launched = describeLaunch(launch);
  if (missing.length > 0)
    throw new InstallerError(
      `verify failed: the entry refers to ${missing.join(', ')}, which ${missing.length === 1 ? 'is' : 'are'} not set here; ${client.name} would start the server without ${missing.length === 1 ? 'it' : 'them'}. Set ${missing.length === 1 ? 'it' : 'them'} and run again.`,
      1,
    );
  let stderr = '';
  const warnings: string[] = [];
  // A wire tap (tests) wants its own connection: no reuse then.
  const memo = options.wrapTransport === undefined ? options.handshakes : undefined;
  const key = memo === undefined ? '' : launchKey(launch);
  const earlier = memo?.get(key);
  try {
    if (earlier !== undefined) return { ...(await earlier), launched, transport: launch.kind, reused: true };
    const started = handshake(launch, {
      ...options,
      onStderr: (chunk) => {
        stderr = (stderr + chunk).slice(-STDERR_TAIL);
      },
      onWarning: (message) => warnings.push(message),
    });
    memo?.set(key, started);
    const result = await started;
    return { ...result, launched, transport: launch.kind };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const tail = stderr.trim() === '' ? '' : `\n  server stderr (last lines):\n${indent(stderr.trim())}`;
    const warned = warnings.length === 0 ? '' : `\n  transport warnings:\n${indent(warnings.join('\n'))}`;
    throw new InstallerError(`verify failed: ${launched}: ${reason}${tail}${warned}`, 1, { cause: error });
  }
}

function indent(text: string): string {
  return text
    .split('\n')
    .slice(-15)
    .map((line) => `    ${line}`)
    .join('\n');
}
