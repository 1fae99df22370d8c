/**
 * A probe: one piece of interaction with the server that yields outcomes for a set of checks. Any of its checks
 * left without an outcome is reported as not run (never as passed).
 */
import type { Revision } from '../catalog/model.js';
import type { TransportKind } from '@mcpengine/wire';
import type { Era, ProbeContext, RevisionState } from './context.js';

export interface Probe {
  readonly name: string;
  readonly checks: readonly string[];
  /** The eras it runs in. */
  readonly eras: readonly Era[];
  /** The transports it runs on (default: all). */
  readonly transports?: readonly TransportKind[];
  /**
   * `isolated`: the probe works on its own connections (handshake variants, authorization) and runs in a second
   * lane, side by side with the probes that share the revision's session. `robustness`: the probes that send
   * bad input on the revision's shared robustness connection, one after another, in a third lane.
   */
  readonly lane?: 'isolated' | 'robustness';
  /**
   * How many fresh connections the probe will open, as far as the revision's start tells (its era, the server's
   * capabilities). On stdio the runner starts that many server processes ahead, side by side, so that a probe
   * late in its lane does not wait for a server start (seconds for heavy servers on a loaded machine).
   */
  readonly fresh?: (state: RevisionState) => number;
  /** A finer revision filter within its eras. */
  readonly revisions?: (revision: Revision) => boolean;
  run(ctx: ProbeContext): Promise<void>;
}

export function appliesTo(probe: Probe, revision: Revision, era: Era, transport: TransportKind): boolean {
  if (!probe.eras.includes(era)) return false;
  if (probe.transports !== undefined && !probe.transports.includes(transport)) return false;
  return probe.revisions === undefined || probe.revisions(revision);
}
