/**
 * Core pinning: the load driver and the server under test each get a core of their own (Linux `taskset`).
 *
 * Unpinned, the scheduler sometimes stacks both processes on one core and moves them between cores, and a
 * stdio ping-pong of 64-request bursts is sensitive to both: the same code measured 0.75× and 0.99× of the raw
 * ceiling in two runs of one session. Every implementation is pinned the same way, so the comparison stays fair.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** The core each side runs on. */
export interface CpuPlan {
  driver: number;
  server: number;
}

/** A program to spawn: the file and its arguments. */
export interface Command {
  file: string;
  args: string[];
}

/** Parses a kernel CPU list such as `0-3,8,10-11`. */
export function parseCpuList(text: string): number[] {
  const cpus: number[] = [];
  for (const part of text.trim().split(',')) {
    const match = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!match) return [];
    const first = Number(match[1]);
    const last = match[2] === undefined ? first : Number(match[2]);
    for (let cpu = first; cpu <= last; cpu++) cpus.push(cpu);
  }
  return cpus;
}

/**
 * The cores to pin to: the first two this process may run on, when there are two and `taskset` works.
 * Undefined elsewhere (other platforms, one core, no taskset), and the suite runs unpinned.
 */
export function planCpus(): CpuPlan | undefined {
  if (process.platform !== 'linux') return undefined;
  let allowed: number[];
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    allowed = parseCpuList(/^Cpus_allowed_list:\s*(.+)$/m.exec(status)?.[1] ?? '');
  } catch {
    return undefined;
  }
  if (allowed.length < 2) return undefined;
  const [driver, server] = allowed as [number, number];
  const probe = spawnSync('taskset', ['-c', String(server), 'true'], { stdio: 'ignore' });
  return probe.status === 0 ? { driver, server } : undefined;
}

/**
 * A Node program, pinned to `cpu` when one is given. `taskset` execs Node in place, so the child's pid is Node's
 * (its CPU time is read from /proc by pid) and signals reach Node directly.
 */
export function nodeCommand(args: readonly string[], cpu: number | undefined): Command {
  return cpu === undefined
    ? { file: process.execPath, args: [...args] }
    : { file: 'taskset', args: ['-c', String(cpu), process.execPath, ...args] };
}
