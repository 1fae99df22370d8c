/**
 * The monitor of external servers: every interval, a handshake (which revision, which era) and the tool-list
 * hash. Compared with the first good check, a different era or a different hash is drift — after approval, a
 * server that changes its tools is how a rug pull looks.
 */
import type { MonitorCheck, Store } from '@mcpengine/store';
import type { ServerEntry } from './fleet.js';
import { inspectServer, toolsHash } from './inspect.js';
import { stdioLaunch } from './launch.js';

export interface Drift {
  readonly at: number;
  readonly message: string;
}

export async function checkExternal(
  store: Store,
  server: ServerEntry,
  timeoutMs: number,
  /** Wraps the transport before use (tests put the oracle's wire tap on it). */
  wrapTransport?: <T extends object>(transport: T) => T,
): Promise<MonitorCheck> {
  const launch = stdioLaunch(server);
  let check: MonitorCheck;
  try {
    const inspection = await inspectServer(
      launch !== undefined ? { stdio: launch } : { url: server.manifest.url! },
      { timeoutMs, ...(wrapTransport === undefined ? {} : { wrapTransport }) },
    );
    check = {
      server: server.name,
      at: Date.now(),
      ok: true,
      revision: inspection.revision,
      toolsHash: toolsHash(inspection.tools),
      message: `${inspection.era} era, revision ${inspection.revision}, ${inspection.tools.length} tools`,
    };
  } catch (error) {
    check = {
      server: server.name,
      at: Date.now(),
      ok: false,
      revision: null,
      toolsHash: null,
      message: (error as Error).message.slice(0, 500),
    };
  }
  await store.addMonitorCheck(check);
  return check;
}

const eraOf = (revision: string): string => (revision >= '2026-07-28' ? 'modern' : 'legacy');

/** Drift against the first good check: era changes and tool-list changes, oldest first. */
export function driftOf(checks: readonly MonitorCheck[]): Drift[] {
  const good = checks.filter((check) => check.ok);
  const first = good[0];
  if (first === undefined) return [];
  const drift: Drift[] = [];
  let previousHash = first.toolsHash;
  for (const check of good.slice(1)) {
    if (check.revision !== null && first.revision !== null && eraOf(check.revision) !== eraOf(first.revision))
      drift.push({ at: check.at, message: `era changed: ${first.revision} → ${check.revision}` });
    if (check.toolsHash !== previousHash)
      drift.push({
        at: check.at,
        message: `tool list changed (sha256 ${String(previousHash).slice(0, 12)} → ${String(check.toolsHash).slice(0, 12)})`,
      });
    previousHash = check.toolsHash;
  }
  return drift;
}

/** Checks every external server now and then every `intervalMs`; returns the stop function. */
export function startMonitor(
  store: Store,
  servers: () => Promise<ServerEntry[]>,
  options: { intervalMs: number; timeoutMs: number; onCheck?: (check: MonitorCheck) => void },
): () => void {
  let running = false;
  const tick = async (): Promise<void> => {
    if (running) return;
    running = true;
    try {
      for (const server of (await servers()).filter((s) => s.kind === 'external'))
        options.onCheck?.(await checkExternal(store, server, options.timeoutMs));
    } catch {
      // The next tick tries again; a store that went away is reported by the API.
    } finally {
      running = false;
    }
  };
  void tick();
  const timer = setInterval(() => void tick(), options.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
