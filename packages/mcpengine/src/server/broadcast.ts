/**
 * Fan-out of server-initiated notifications (list changes, resource updates) to whoever asked for them:
 * initialized legacy sessions, and modern `subscriptions/listen` streams.
 */
import { serializeNotification } from '../protocol/jsonrpc.js';
import { MetaKey } from '../protocol/meta.js';
import type { JsonObject, RequestId, SubscriptionFilter } from '../protocol/types.js';
import type { Outbox } from '../rpc/outbox.js';

export type ListKind = 'tools' | 'prompts' | 'resources';

/** What the broadcaster needs from a legacy session. */
export interface LegacySubscriber {
  readonly initialized: boolean;
  readonly resourceSubscriptions: ReadonlySet<string>;
  listChangedEnabled(kind: ListKind): boolean;
  notify(method: string, params?: JsonObject): void;
  /** Whether broadcasts reach this subscriber here (a scaled-out server: where its stream is). Default yes. */
  readonly receivesBroadcasts?: (() => boolean) | undefined;
}

/** A broadcast as it travels between the processes of a scaled-out server. */
export type BroadcastEvent =
  | { readonly type: 'listChanged'; readonly kind: ListKind }
  | { readonly type: 'resourceUpdated'; readonly uri: string };

/** An open modern `subscriptions/listen` request. */
export interface Listener {
  readonly id: RequestId;
  readonly filter: SubscriptionFilter;
  readonly outbox: Outbox;
}

const LIST_CHANGED: Record<ListKind, { method: string; flag: keyof SubscriptionFilter }> = {
  tools: { method: 'notifications/tools/list_changed', flag: 'toolsListChanged' },
  prompts: { method: 'notifications/prompts/list_changed', flag: 'promptsListChanged' },
  resources: { method: 'notifications/resources/list_changed', flag: 'resourcesListChanged' },
};

export class Broadcaster {
  readonly sessions = new Set<LegacySubscriber>();
  readonly listeners = new Set<Listener>();
  private readonly changed = new Set<ListKind>();
  private flushScheduled = false;
  /** Set by a scaled-out server: hands every local broadcast to the other processes (see `receive`). */
  relay: ((event: BroadcastEvent) => void) | undefined;

  /** Several changes in the same tick produce one notification per kind. */
  listChanged(kind: ListKind): void {
    this.changed.add(kind);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    queueMicrotask(() => this.flush());
  }

  private flush(): void {
    this.flushScheduled = false;
    const kinds = [...this.changed];
    this.changed.clear();
    for (const kind of kinds) {
      this.deliverListChanged(kind);
      this.relay?.({ type: 'listChanged', kind });
    }
  }

  private deliverListChanged(kind: ListKind): void {
    const { method, flag } = LIST_CHANGED[kind];
    for (const session of this.sessions) {
      if (
        session.initialized &&
        session.listChangedEnabled(kind) &&
        session.receivesBroadcasts?.() !== false
      ) {
        session.notify(method);
      }
    }
    for (const listener of this.listeners) {
      if (listener.filter[flag] === true) listener.outbox.send(taggedNotification(method, listener.id));
    }
  }

  /** A broadcast made by another process of a scaled-out server: delivered here, not relayed again. */
  receive(event: BroadcastEvent): void {
    if (event.type === 'listChanged') {
      if (Object.hasOwn(LIST_CHANGED, event.kind)) this.deliverListChanged(event.kind);
    } else if (typeof event.uri === 'string') {
      this.deliverResourceUpdated(event.uri);
    }
  }

  resourceUpdated(uri: string): void {
    this.deliverResourceUpdated(uri);
    this.relay?.({ type: 'resourceUpdated', uri });
  }

  private deliverResourceUpdated(uri: string): void {
    for (const session of this.sessions) {
      if (
        session.initialized &&
        session.resourceSubscriptions.has(uri) &&
        session.receivesBroadcasts?.() !== false
      ) {
        session.notify('notifications/resources/updated', { uri });
      }
    }
    for (const listener of this.listeners) {
      if (listener.filter.resourceSubscriptions?.includes(uri)) {
        listener.outbox.send(taggedNotification('notifications/resources/updated', listener.id, { uri }));
      }
    }
  }
}

/** A notification on a listen stream carries the subscription id (the listen request's id) in `_meta`. */
export function taggedNotification(
  method: string,
  subscriptionId: RequestId,
  params: JsonObject = {},
): string {
  return serializeNotification(method, { ...params, _meta: { [MetaKey.subscriptionId]: subscriptionId } });
}
