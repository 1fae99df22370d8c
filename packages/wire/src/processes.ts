/**
 * Every process group the validator starts, so that none outlives it. Each server runs as the leader of its own
 * process group, so its descendants (the node process behind `npx`, a shell's children) are reached too.
 */

const groups = new Set<number>();
let hooked = false;

export function trackGroup(pid: number): void {
  groups.add(pid);
  if (!hooked) {
    hooked = true;
    // `exit` handlers must be synchronous: signalling each group is.
    process.once('exit', killAllGroups);
  }
}

/** SIGKILLs the group and forgets it. Safe to call when the group is already gone. */
export function killGroup(pid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
  try {
    if (process.platform === 'win32') process.kill(pid, signal);
    else process.kill(-pid, signal);
  } catch {
    // ESRCH: nothing left in the group.
  }
  if (signal === 'SIGKILL') groups.delete(pid);
}

/** Whether any process of the group is still alive. */
export function groupAlive(pid: number): boolean {
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function killAllGroups(): void {
  for (const pid of [...groups]) killGroup(pid);
}

export function trackedGroupCount(): number {
  return groups.size;
}
