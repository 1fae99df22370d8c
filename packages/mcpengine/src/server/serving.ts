/**
 * `Serving`: the handle every `serve*` function returns. A handle owns the server it serves: closing the
 * handle closes the server (in-flight requests drain, subscriptions end, tasks stop), and `closed` settles
 * once serving has ended, whoever ended it (the handle's `close()`, or the transport: stdin reaching its end).
 *
 * Library code never exits the process; bin code does, with `exitWhenClosed(serving)`.
 */
export interface Serving {
  /** Settles when serving has ended and the server is closed. Never rejects. */
  readonly closed: Promise<void>;
  /** Stops serving and closes the server; in-flight requests get up to `drainTimeoutMs` (default 2 s). */
  close(options?: { drainTimeoutMs?: number }): Promise<void>;
}

export interface ExitWhenClosedOptions {
  /** Close gracefully on SIGTERM and SIGINT. Default true. */
  signals?: boolean;
  /** How long a signal-triggered close lets in-flight requests finish. Default 2 s. */
  drainTimeoutMs?: number;
  /** Exit code once closed. Default 0. */
  exitCode?: number;
}

/**
 * For bin code: exits the process once `serving` has closed, and (by default) closes it on SIGTERM/SIGINT.
 * A hard deadline makes sure a handler that never settles cannot keep the process alive after a signal.
 */
export function exitWhenClosed(serving: Serving, options: ExitWhenClosedOptions = {}): void {
  const drainTimeoutMs = options.drainTimeoutMs ?? 2_000;
  const exitCode = options.exitCode ?? 0;
  if (options.signals ?? true) {
    const stop = () => {
      const deadline = setTimeout(() => process.exit(exitCode), drainTimeoutMs + 1_000);
      deadline.unref();
      void serving.close({ drainTimeoutMs });
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  }
  void serving.closed.then(() => process.exit(exitCode));
}

/** A `closed` promise and the function that settles it once. */
export function closedSignal(): { closed: Promise<void>; settle: () => void } {
  let settle!: () => void;
  const closed = new Promise<void>((resolve) => (settle = resolve));
  return { closed, settle };
}
