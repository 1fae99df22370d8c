/**
 * Sessions held per principal (per peer address when anonymous), across Streamable HTTP and HTTP+SSE: one
 * caller cannot fill the whole session table.
 */
export class SessionQuota {
  private readonly held = new Map<string, number>();

  constructor(readonly perKey: number) {}

  /** Sessions `key` holds. */
  count(key: string): number {
    return this.held.get(key) ?? 0;
  }

  full(key: string): boolean {
    return this.count(key) >= this.perKey;
  }

  /** Counts a new session of `key`; returns the function that releases it (idempotent). */
  acquire(key: string): () => void {
    this.held.set(key, this.count(key) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = this.count(key) - 1;
      if (left > 0) this.held.set(key, left);
      else this.held.delete(key);
    };
  }
}

/**
 * Whom a session counts against: the principal, or for anonymous callers the peer address (`anonymous` when
 * the transport does not know it: every anonymous caller then shares one quota). Principals are JSON arrays
 * (see `principalOf`), so neither prefix can collide with one.
 */
export function quotaKey(principal: string, peer: string | undefined): string {
  if (principal !== '') return principal;
  return peer === undefined ? 'anonymous' : `peer ${peer}`;
}
