/**
 * The message bus on Redis pub/sub: one subscriber connection per process (a connection in subscribe mode can do
 * nothing else), channels subscribed while a listener needs them. Delivery is at most once; ioredis subscribes
 * again by itself after a reconnect.
 */
import type { Redis } from 'ioredis';
import type { MessageBus } from 'mcpengine/http';

type Listener = (message: string) => void;

export class RedisBus implements MessageBus {
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly prefix: string,
    private readonly report: (error: unknown) => void,
  ) {
    subscriber.on('message', (channel: string, message: string) => {
      const listeners = this.listeners.get(channel);
      if (!listeners) return;
      for (const listener of [...listeners]) {
        try {
          listener(message);
        } catch (error) {
          this.report(error);
        }
      }
    });
  }

  /** Channels subscribed now (for tests and metrics). */
  get channels(): number {
    return this.listeners.size;
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.publisher.publish(this.prefix + channel, message);
  }

  async subscribe(channel: string, listener: Listener): Promise<void> {
    const name = this.prefix + channel;
    let listeners = this.listeners.get(name);
    if (!listeners) {
      listeners = new Set();
      this.listeners.set(name, listeners);
    }
    listeners.add(listener);
    try {
      await this.subscriber.subscribe(name);
    } catch (error) {
      listeners.delete(listener);
      if (listeners.size === 0 && this.listeners.get(name) === listeners) this.listeners.delete(name);
      throw error;
    }
  }

  async unsubscribe(channel: string, listener: Listener): Promise<void> {
    const name = this.prefix + channel;
    const listeners = this.listeners.get(name);
    if (!listeners?.delete(listener) || listeners.size > 0) return;
    this.listeners.delete(name);
    await this.subscriber.unsubscribe(name);
  }
}
