/**
 * A binary min-heap of (expiry time, task id): the next task to expire is always at the top, so sweeping costs
 * O(log n) per expired task and nothing for the rest. Entries of tasks deleted early stay until they surface
 * (lazy deletion); `compact` rebuilds the heap when such leftovers outnumber the live tasks.
 */
export class ExpiryQueue {
  private times: number[] = [];
  private ids: string[] = [];

  get size(): number {
    return this.times.length;
  }

  /** The earliest expiry, or undefined when empty. */
  peekTime(): number | undefined {
    return this.times[0];
  }

  push(time: number, id: string): void {
    this.times.push(time);
    this.ids.push(id);
    this.up(this.times.length - 1);
  }

  /** Removes and returns the earliest entry. */
  pop(): { time: number; id: string } | undefined {
    const n = this.times.length;
    if (n === 0) return undefined;
    const top = { time: this.times[0]!, id: this.ids[0]! };
    const lastTime = this.times.pop()!;
    const lastId = this.ids.pop()!;
    if (n > 1) {
      this.times[0] = lastTime;
      this.ids[0] = lastId;
      this.down(0);
    }
    return top;
  }

  /** Rebuilds from the entries `keep` accepts. */
  compact(keep: (id: string, time: number) => boolean): void {
    const times: number[] = [];
    const ids: string[] = [];
    for (let i = 0; i < this.times.length; i++) {
      if (keep(this.ids[i]!, this.times[i]!)) {
        times.push(this.times[i]!);
        ids.push(this.ids[i]!);
      }
    }
    this.times = times;
    this.ids = ids;
    for (let i = (times.length >> 1) - 1; i >= 0; i--) this.down(i);
  }

  clear(): void {
    this.times = [];
    this.ids = [];
  }

  private up(index: number): void {
    let i = index;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.times[parent]! <= this.times[i]!) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(index: number): void {
    const n = this.times.length;
    let i = index;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < n && this.times[left]! < this.times[smallest]!) smallest = left;
      if (right < n && this.times[right]! < this.times[smallest]!) smallest = right;
      if (smallest === i) return;
      this.swap(i, smallest);
      i = smallest;
    }
  }

  private swap(a: number, b: number): void {
    const time = this.times[a]!;
    this.times[a] = this.times[b]!;
    this.times[b] = time;
    const id = this.ids[a]!;
    this.ids[a] = this.ids[b]!;
    this.ids[b] = id;
  }
}
