/**
 * Coarse deadlines, checked on a periodic tick instead of one timer each. A timer per request (armed, then
 * cleared moments later when the body has arrived) costs more than the rest of a small exchange's bookkeeping;
 * a deadline here is two pointer updates. A deadline fires between its time and one tick later, never early.
 */
export interface Deadline {
  /** The tick at which it fires. */
  readonly dueTick: number;
  readonly onExpire: () => void;
  prev: Deadline | undefined;
  next: Deadline | undefined;
}

export class Deadlines {
  readonly tickMs: number;
  private ticks = 0;
  /** A doubly linked list: adding and removing cost the same whatever the number of deadlines. */
  private head: Deadline | undefined;

  constructor(tickMs: number) {
    this.tickMs = tickMs;
  }

  /** Calls `onExpire` once `ms` have passed, unless `remove` comes first. */
  add(ms: number, onExpire: () => void): Deadline {
    // +1: the current tick is already partly over.
    const deadline: Deadline = {
      dueTick: this.ticks + Math.ceil(ms / this.tickMs) + 1,
      onExpire,
      prev: undefined,
      next: this.head,
    };
    if (this.head !== undefined) this.head.prev = deadline;
    this.head = deadline;
    return deadline;
  }

  /** Forgets a deadline; false when it was no longer pending (removed already, or expired). */
  remove(deadline: Deadline): boolean {
    if (deadline.prev !== undefined) deadline.prev.next = deadline.next;
    else if (this.head === deadline) this.head = deadline.next;
    else return false;
    if (deadline.next !== undefined) deadline.next.prev = deadline.prev;
    deadline.prev = deadline.next = undefined;
    return true;
  }

  /** One tick has passed: fires what is due (a callback may add or remove deadlines). */
  tick(): void {
    const now = ++this.ticks;
    const due: Deadline[] = [];
    for (let deadline = this.head; deadline !== undefined; deadline = deadline.next) {
      if (deadline.dueTick <= now) due.push(deadline);
    }
    for (const deadline of due) if (this.remove(deadline)) deadline.onExpire();
  }

  get size(): number {
    let count = 0;
    for (let d = this.head; d !== undefined; d = d.next) count++;
    return count;
  }
}
