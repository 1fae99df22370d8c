/**
 * The few browser APIs the bridge uses, typed here so the package type-checks with or without the DOM library
 * (the monorepo's Node programs must not see DOM globals).
 */
export interface HostWindow {
  postMessage(message: unknown, targetOrigin: string): void;
}

export interface BridgeMessageEvent {
  readonly source: unknown;
  readonly data: unknown;
}

export interface StyleTarget {
  dataset: Record<string, string | undefined>;
  style: { colorScheme: string; setProperty(name: string, value: string): void };
  readonly scrollWidth: number;
  readonly scrollHeight: number;
}

interface ElementLike {
  id: string;
  textContent: string | null;
}

interface ResizeObserverLike {
  observe(target: unknown): void;
  disconnect(): void;
}

export interface BrowserGlobals {
  window: HostWindow & {
    parent: HostWindow;
    addEventListener(type: 'message', listener: (event: BridgeMessageEvent) => void): void;
    removeEventListener(type: 'message', listener: (event: BridgeMessageEvent) => void): void;
  };
  document: {
    documentElement: StyleTarget;
    body: { readonly scrollHeight: number } | null;
    head: { appendChild(node: unknown): unknown };
    getElementById(id: string): ElementLike | null;
    createElement(tag: 'style'): ElementLike;
  };
  ResizeObserver?: new (callback: () => void) => ResizeObserverLike;
  queueMicrotask(callback: () => void): void;
  console: { error(...args: unknown[]): void };
}

export const browser = (): BrowserGlobals => globalThis as unknown as BrowserGlobals;
