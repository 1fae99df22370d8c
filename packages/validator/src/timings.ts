/**
 * Where a validation's time goes (`--timings`, or `MCPENGINE_VALIDATE_TIMING=1`): the phases of the run, every
 * probe of every revision with its lane and when it started, the connections opened (processes started on
 * stdio), and the validator's own CPU time. Written to stderr after the run; never part of the report.
 */

export type Lane = 'first' | 'shared' | 'isolated' | 'robustness' | 'passive';

interface Span {
  readonly name: string;
  readonly startMs: number;
  readonly endMs: number;
}

interface ProbeSpan extends Span {
  readonly revision: string;
  readonly lane: Lane;
}

export class Timings {
  readonly #origin = Date.now();
  readonly #cpu = process.cpuUsage();
  readonly #phases: Span[] = [];
  readonly #probes: ProbeSpan[] = [];
  readonly #revisions = new Map<string, { span: Span; connections: number }>();
  connections = 0;

  /** Milliseconds since the run started. */
  now(): number {
    return Date.now() - this.#origin;
  }

  async phase<T>(name: string, work: () => Promise<T>): Promise<T> {
    const startMs = this.now();
    try {
      return await work();
    } finally {
      this.#phases.push({ name, startMs, endMs: this.now() });
    }
  }

  probe(revision: string, lane: Lane, name: string, startMs: number): void {
    this.#probes.push({ revision, lane, name, startMs, endMs: this.now() });
  }

  revision(revision: string, startMs: number, connections: number): void {
    this.#revisions.set(revision, { span: { name: revision, startMs, endMs: this.now() }, connections });
  }

  /** A plain-text account, longest probes first within each revision. */
  render(): string {
    const cpu = process.cpuUsage(this.#cpu);
    const ms = (value: number): string => `${value} ms`.padStart(9);
    const lines = [
      `timings: ${this.now()} ms wall, validator CPU ${Math.round((cpu.user + cpu.system) / 1000)} ms, ` +
        `${this.connections} connection(s) opened (on stdio: server processes started)`,
    ];
    for (const phase of this.#phases)
      lines.push(`  ${phase.name.padEnd(44)}${ms(phase.endMs - phase.startMs)}  (at ${phase.startMs} ms)`);
    for (const [revision, { span, connections }] of [...this.#revisions].sort()) {
      lines.push(
        `  ${revision}: ${span.endMs - span.startMs} ms (at ${span.startMs} ms), ${connections} connection(s)`,
      );
      const probes = this.#probes.filter((p) => p.revision === revision);
      const lanes = [...new Set(probes.map((p) => p.lane))];
      for (const lane of lanes) {
        const inLane = probes.filter((p) => p.lane === lane);
        const start = Math.min(...inLane.map((p) => p.startMs));
        const end = Math.max(...inLane.map((p) => p.endMs));
        lines.push(`    lane ${lane}: ${end - start} ms (${start}–${end} ms)`);
        for (const probe of [...inLane].sort((a, b) => b.endMs - b.startMs - (a.endMs - a.startMs))) {
          if (probe.endMs - probe.startMs < 20) continue;
          lines.push(
            `      ${probe.name.padEnd(40)}${ms(probe.endMs - probe.startMs)}  (at ${probe.startMs} ms)`,
          );
        }
      }
    }
    return `${lines.join('\n')}\n`;
  }
}

/** Whether the environment asks for timings (`MCPENGINE_VALIDATE_TIMING=1`, kept from before `--timings`). */
export function timingsFromEnv(env: Readonly<Record<string, string | undefined>>): boolean {
  return env['MCPENGINE_VALIDATE_TIMING'] === '1';
}
