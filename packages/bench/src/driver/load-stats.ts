/**
 * Book-keeping shared by the load generators: requests in flight by id, latencies, and the sampled full check
 * of responses.
 */
import { quantile } from '../stats.js';
import { parseResponse } from './responses.js';

/** Checks one fully parsed response; returns a problem description or undefined. */
export type ResponseCheck = (response: {
  id: unknown;
  result?: Record<string, unknown>;
  error?: unknown;
}) => string | undefined;

export interface LoadResult {
  /** Responses completed inside the measurement window. */
  completed: number;
  /** Length of the measurement window in milliseconds. */
  elapsedMs: number;
  /** Completed per second. */
  throughput: number;
  /** Latency percentiles in milliseconds over the window (request written → response read). */
  p50Ms: number;
  p99Ms: number;
  /** CPU time of the driver process during the window, in milliseconds. */
  driverCpuMs: number;
  /** CPU time of the server process during the window, when it could be read (Linux /proc). */
  serverCpuMs: number | undefined;
  /** Responses parsed in full and checked. */
  verified: number;
}

const SAMPLE_EVERY = 256;

/** A window is extended until at least this many responses have completed in it (slow servers)… */
export const MIN_COMPLETED = 20;
/** …but never beyond this many times its planned length. */
export const MAX_STRETCH = 10;

/**
 * Waits for the measurement window: `durationMs`, stretched (up to MAX_STRETCH times) until `completed()`
 * reaches MIN_COMPLETED, so that a server answering a few requests per second still gets a real figure.
 */
export async function measurementWindow(durationMs: number, completed: () => number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, durationMs));
  const deadline = Date.now() + durationMs * (MAX_STRETCH - 1);
  while (completed() < MIN_COMPLETED && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));
}
const FULL_CHECKS_FIRST = 32;

/**
 * Tracks requests by integer id (handed out sequentially): their send times, for latency, and whether they
 * are still in flight. A response whose id is not in flight is an error the caller reports.
 */
export class InflightTable {
  readonly #sentAt = new Map<number, number>();
  #nextId = 1;

  get count(): number {
    return this.#sentAt.size;
  }

  /** Registers a new request sent at `now`; returns its id. */
  open(now: number): number {
    const id = this.#nextId++;
    this.#sentAt.set(id, now);
    return id;
  }

  /** Settles request `id`; returns its send time, or -1 when no such request is in flight. */
  close(id: number): number {
    const sentAt = this.#sentAt.get(id);
    if (sentAt === undefined) return -1;
    this.#sentAt.delete(id);
    return sentAt;
  }
}

/** Latency samples and counters for one measurement window. */
export class WindowStats {
  #latencies = new Float64Array(1 << 16);
  #count = 0;
  completed = 0;
  verified = 0;
  #seen = 0;

  record(latencyMs: number): void {
    if (this.#count === this.#latencies.length) {
      const grown = new Float64Array(this.#latencies.length * 2);
      grown.set(this.#latencies);
      this.#latencies = grown;
    }
    this.#latencies[this.#count++] = latencyMs;
    this.completed++;
  }

  reset(): void {
    this.#count = 0;
    this.completed = 0;
  }

  /**
   * Whether this response should be parsed in full: the first few of a run, then one in SAMPLE_EVERY. Cheap
   * enough to keep the driver light, frequent enough that a server answering wrongly fails the run.
   */
  shouldVerify(): boolean {
    const n = this.#seen++;
    return n < FULL_CHECKS_FIRST || n % SAMPLE_EVERY === 0;
  }

  /** Parses and checks one response; throws with a description when it is wrong. */
  verify(line: string, expectedId: number, check: ResponseCheck): void {
    const response = parseResponse(line);
    if (response.id !== expectedId) {
      throw new Error(
        `response id mismatch: read ${expectedId} quickly, parsed ${JSON.stringify(response.id)}`,
      );
    }
    const problem = check(response);
    if (problem) throw new Error(`${problem}: ${line.slice(0, 300)}`);
    this.verified++;
  }

  percentile(q: number): number {
    return quantile(this.#latencies, q, this.#count);
  }
}
