/**
 * The stdio transport: one server process, newline-delimited JSON-RPC on its stdin and stdout.
 */
import type { Received } from './channel.js';
import { StdioServerProcess, type StdioLaunch, type StdioLimits } from './stdio-process.js';
import { StreamChannel } from './stream-channel.js';

export class StdioChannel extends StreamChannel {
  readonly kind = 'stdio' as const;
  readonly process: StdioServerProcess;

  private constructor(server: StdioServerProcess, defaultTimeoutMs: number) {
    super(defaultTimeoutMs);
    this.process = server;
    server.onLine((line) => {
      const received: Received = {
        at: line.at,
        text: line.text,
        ...(line.parseError === undefined ? { message: line.json } : { parseError: line.parseError }),
      };
      this.deliver(received);
    });
    void server.exited.then(() => {
      // Lines written just before the exit are delivered before waiters learn the channel is gone.
      setTimeout(() => this.ended(), 50);
    });
  }

  static async open(
    launch: StdioLaunch,
    defaultTimeoutMs: number,
    limits?: StdioLimits,
  ): Promise<StdioChannel> {
    return new StdioChannel(await StdioServerProcess.start(launch, limits), defaultTimeoutMs);
  }

  protected write(text: string): Promise<boolean> {
    return Promise.resolve(this.process.write(`${text}\n`));
  }

  alive(): boolean {
    return this.process.exitStatus === undefined && this.process.flood === undefined;
  }

  deathNote(): string | undefined {
    if (this.process.flood !== undefined)
      return `the server ${this.process.flood} and was stopped by the validator`;
    const exit = this.process.exitStatus;
    if (exit === undefined) return undefined;
    const how = exit.signal === null ? `exited with code ${exit.code}` : `was killed by ${exit.signal}`;
    const stderr = this.process.stderr.trim();
    return stderr === '' ? `the server ${how}` : `the server ${how}; stderr: ${stderr.slice(-500)}`;
  }

  close(): Promise<void> {
    return this.process.stop();
  }
}
