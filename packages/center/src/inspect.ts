/**
 * One look at a server through the engine's client: the handshake (which revision, which era), the server's
 * identity and capabilities, and every tool and resource it lists. The review and the monitor both start here.
 */
import { createHash } from 'node:crypto';
import { Client, type ClientSession } from 'mcpengine/client';
import { StreamableHttpClientTransport } from 'mcpengine/http';
import { StdioClientTransport } from 'mcpengine/stdio';
import type { StdioLaunch } from './launch.js';

export type JsonObject = Record<string, unknown>;

export interface Inspection {
  readonly revision: string;
  readonly era: string;
  readonly serverName: string;
  readonly serverVersion: string;
  readonly capabilities: JsonObject;
  readonly tools: JsonObject[];
  readonly resources: JsonObject[];
}

export type InspectTarget = { readonly stdio: StdioLaunch } | { readonly url: string };

export async function inspectServer(
  target: InspectTarget,
  options: {
    timeoutMs: number;
    signal?: AbortSignal;
    /** Wraps the transport before use (tests put the oracle's wire tap on it). */
    wrapTransport?: <T extends object>(transport: T) => T;
  },
): Promise<Inspection> {
  let stderr = '';
  const base =
    'stdio' in target
      ? new StdioClientTransport({
          command: target.stdio.command,
          args: [...target.stdio.args],
          env: { ...target.stdio.env },
          cwd: target.stdio.cwd,
          stderr: 'pipe',
          onStderr: (chunk: string) => {
            stderr = (stderr + chunk).slice(-2000);
          },
        })
      : new StreamableHttpClientTransport(target.url, { timeoutMs: options.timeoutMs });
  const transport = options.wrapTransport ? options.wrapTransport(base) : base;
  const client = new Client({
    name: 'mcpengine-center',
    version: '0.1.0',
    requestTimeoutMs: options.timeoutMs,
  });
  let session: ClientSession | undefined;
  // Closing the transport ends a session in progress, and a handshake still under way.
  const abort = (): void => void (session ? session.close() : transport.close()).catch(() => undefined);
  options.signal?.addEventListener('abort', abort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
  });
  try {
    return await Promise.race([
      (async () => {
        const connected = await client.connect(transport);
        session = connected;
        const tools = (await connected.listAllTools()) as unknown as JsonObject[];
        const capabilities = (connected.serverCapabilities ?? {}) as JsonObject;
        const resources: JsonObject[] = [];
        if (capabilities['resources'] !== undefined)
          for await (const resource of connected.resources()) resources.push(resource as unknown as JsonObject);
        return {
          revision: connected.revision,
          era: connected.era,
          serverName: connected.serverInfo?.name ?? '',
          serverVersion: connected.serverInfo?.version ?? '',
          capabilities,
          tools,
          resources,
        };
      })(),
      deadline,
    ]);
  } catch (error) {
    const tail = stderr.trim() === '' ? '' : ` (stderr: ${stderr.trim().slice(-500)})`;
    throw new Error(`${(error as Error).message}${tail}`, { cause: error });
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', abort);
    await (session ? session.close() : transport.close()).catch(() => undefined);
  }
}

/** Key order does not matter; anything else in a definition does. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as JsonObject)[key])]),
    );
  return value;
}

/** sha256 of one tool definition, order of keys aside. */
export function toolHash(tool: JsonObject): string {
  return createHash('sha256')
    .update(JSON.stringify(canonical(tool)))
    .digest('hex');
}

/** sha256 of the whole tool list, sorted by name: changes when any tool is added, removed or redefined. */
export function toolsHash(tools: readonly JsonObject[]): string {
  const sorted = [...tools].sort((a, b) => String(a['name']).localeCompare(String(b['name'])));
  return createHash('sha256')
    .update(JSON.stringify(canonical(sorted)))
    .digest('hex');
}
