/**
 * The heap probe every server under test installs: when started with an IPC channel, it answers
 * `{ type: 'heap' }` with its heap after a forced garbage collection (`--expose-gc`). It adds nothing to the
 * request path, and without an IPC channel it does nothing at all.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

export function installHeapProbe(): void {
  if (typeof process.send !== 'function') return;
  process.on('message', (message: { type?: string } | undefined) => {
    if (message?.type !== 'heap') return;
    void (async () => {
      const gc = (globalThis as { gc?: () => void }).gc;
      // Two passes with a turn between them let weak references and finalizers settle.
      for (let i = 0; i < 3; i++) {
        gc?.();
        await nextTurn();
      }
      const memory = process.memoryUsage();
      process.send?.({ type: 'heap', heapUsed: memory.heapUsed, rss: memory.rss, gc: gc !== undefined });
    })();
  });
  // The channel must not keep a server alive once its transport is done.
  process.channel?.unref();
}

/** Prints the bound port for the orchestrator (HTTP servers use stdout only for this line). */
export function announcePort(port: number): void {
  process.stdout.write(`LISTENING ${port}\n`);
}

/** What the HTTP servers are asked to serve: the echo tool (default) or the 53-tool catalogue. */
export function serverArgs(argv: readonly string[]): { transport: 'stdio' | 'http'; catalog: boolean } {
  const transport = argv[0] === 'http' ? 'http' : 'stdio';
  return { transport, catalog: argv.includes('--catalog') };
}
