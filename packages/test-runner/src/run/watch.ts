/**
 * `--watch`: run, then run again whenever a test file or a watched path (`--watch-path`, e.g. the server's
 * sources or build output) changes, until interrupted. Changes that arrive during a run queue one more run.
 */
import { watch, type FSWatcher } from 'node:fs';
import { resolve } from 'node:path';
import { runOnce, type RunnerIo, type RunRequest } from './runner.js';

const DEBOUNCE_MS = 300;

export async function watchRuns(
  request: RunRequest,
  io: RunnerIo,
  watchPaths: readonly string[],
): Promise<number> {
  let last = await runOnce(request, io);
  const targets = [...new Set([...last.files, ...watchPaths.map((p) => resolve(io.cwd, p))])];
  const watchers: FSWatcher[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = false;
  let again = false;
  const rerun = async (): Promise<void> => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    io.stdout('\nChange detected: running again…\n');
    last = await runOnce(request, io);
    running = false;
    if (again && !io.signal.aborted) {
      again = false;
      await rerun();
    } else io.stdout('Watching for changes (Ctrl-C to stop).\n');
  };
  for (const target of targets) {
    try {
      watchers.push(
        watch(target, { recursive: true }, () => {
          clearTimeout(timer);
          timer = setTimeout(() => void rerun(), DEBOUNCE_MS);
        }),
      );
    } catch (error) {
      io.stderr(`mcpengine test: cannot watch ${target}: ${(error as Error).message}\n`);
    }
  }
  io.stdout(`Watching ${targets.length} path(s) for changes (Ctrl-C to stop).\n`);
  await new Promise<void>((done) => {
    if (io.signal.aborted) done();
    io.signal.addEventListener('abort', () => done(), { once: true });
  });
  clearTimeout(timer);
  for (const watcher of watchers) watcher.close();
  return last.exitCode;
}
