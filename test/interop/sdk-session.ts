/**
 * The session life cycle both official SDK suites (`sdk-v1-suite.ts`, `sdk-v2-suite.ts`) share, whatever the SDK:
 * a transport opened for one session with the way to stop its server, connecting a client over it, closing and
 * checking a session at its end, and the sessions single tests open for themselves.
 */
import type { WireTap } from '@mcpengine/oracle';
import { afterEach, expect } from 'vitest';
import { EVERYTHING_MAIN } from './everything-expected.js';
import type { HttpLog } from './everything-http.js';

/** An SDK transport to a server started for one session, and how to stop that server. */
export interface OpenedSdkTransport<T> {
  readonly transport: T;
  /** HTTP transports: the recording `fetch` the transport was given. */
  readonly http?: HttpLog;
  /**
   * Resolves once the server can reach the client outside any request (Streamable HTTP: the standalone GET
   * stream is open), so that notifications such as list_changed are not sent before anyone listens.
   */
  ready?(): Promise<void>;
  /** Stops the server, after the client has closed (stdio: closing the client already ends the process). */
  stop(): Promise<void>;
}

/** How either SDK's stdio transport starts the everything server: one process per transport. */
export function everythingStdio(): { command: string; args: string[]; stderr: 'pipe' } {
  return { command: process.execPath, args: [EVERYTHING_MAIN], stderr: 'pipe' };
}

/** A stdio transport as an opened transport: closing the client ends the process, so there is nothing to stop. */
export function openedStdio<T>(transport: T): Promise<OpenedSdkTransport<T>> {
  return Promise.resolve({ transport, stop: () => Promise.resolve() });
}

/**
 * Connects `client` over `transport` (the tapped form of `opened.transport`) and waits until the server can reach
 * it. Resolves to the session's `close`: close the client, then stop the server. If connecting fails, the session
 * is closed before the error is thrown.
 */
export async function connectSession<T>(
  client: { connect(transport: T): Promise<void>; close(): Promise<void> },
  transport: T,
  opened: Pick<OpenedSdkTransport<unknown>, 'ready' | 'stop'>,
): Promise<() => Promise<void>> {
  const close = async () => {
    try {
      await client.close();
    } finally {
      await opened.stop();
    }
  };
  try {
    await client.connect(transport);
    await opened.ready?.();
  } catch (error) {
    await close();
    throw error;
  }
  return close;
}

export interface CheckedSession {
  readonly transport: { readonly transportErrors: readonly Error[] };
  readonly tap: WireTap;
  close(): Promise<void>;
}

/** Closes the session and checks that everything our server sent was valid. */
export async function finishSession(session: CheckedSession): Promise<void> {
  await session.close();
  expect(session.transport.transportErrors).toEqual([]);
  session.tap.assertClean();
}

/**
 * Sessions that single tests open for themselves, each finished after its test. Call in a describe body (or at
 * the top level); the returned function connects one.
 */
export function freshSessions<O, S extends CheckedSession>(
  connect: (options?: O) => Promise<S>,
): (options?: O) => Promise<S> {
  const sessions: S[] = [];
  afterEach(async () => {
    for (const session of sessions.splice(0)) await finishSession(session);
  });
  return async (options) => {
    const session = await connect(options);
    sessions.push(session);
    return session;
  };
}

/** The text of a result's first content block, which must be text. */
export function textOf(result: unknown): string {
  const first = (result as { content?: { type: string; text?: string }[] }).content?.[0];
  if (first?.type !== 'text' || first.text === undefined) throw new Error('expected a text block first');
  return first.text;
}
