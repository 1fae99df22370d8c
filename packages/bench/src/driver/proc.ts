/**
 * Process helpers: CPU time of another process (Linux /proc), spawning with captured stderr, and stopping.
 */
import { readFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';

/** Linux reports utime/stime in clock ticks; USER_HZ is 100 on every mainstream Linux build. */
const TICKS_PER_SECOND = 100;

/** CPU time (user + system, all threads) of process `pid` in milliseconds, or undefined when unavailable. */
export function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined || process.platform !== 'linux') return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces; fields are counted after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    if (!Number.isFinite(utime) || !Number.isFinite(stime)) return undefined;
    return ((utime + stime) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** CPU time of this process in milliseconds. */
export function ownCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** Keeps the last `limit` characters a child wrote to stderr, for error messages. */
export function captureStderr(child: ChildProcess, limit = 4000): () => string {
  let text = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    text = (text + chunk).slice(-limit);
  });
  return () => text.trim();
}

/** Ends a child: SIGTERM, then SIGKILL after `graceMs`. Resolves when it has exited. */
export function stopProcess(child: ChildProcess, graceMs = 2000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Resolves when `child` exits within `ms`, else kills it. */
export function awaitExit(child: ChildProcess, ms: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => void stopProcess(child).then(resolve), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
