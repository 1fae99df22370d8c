/**
 * "The receiver MUST respond promptly with an empty response" (ping): the bound is a setting (`--ping-bound`),
 * and a ping over it is late only when the server answers other requests of the moment much faster
 * (interpretations.md, "A ping answered promptly"). A server that holds pings back fails; one that is slow at
 * everything, as every server is on a loaded machine, does not. The servers' delays (2.5 s for pings; 400 ms
 * for everything) dwarf a 100 ms bound, so that the verdicts do not depend on this machine's load.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ProbeContext, RevisionState, type RunSettings } from './checks/context.js';
import { legacySessionBasics, PING } from './checks/lifecycle.js';
import { discover, releaseSpares } from './discovery.js';
import { PACKAGE_DIR } from './paths.js';
import { StdioTarget } from './target.js';
import { trackedGroupCount } from '@mcpengine/wire';

const SETTINGS: RunSettings = {
  requestTimeoutMs: 10_000,
  probeTimeoutMs: 30_000,
  callTools: new Set(),
  callAllTools: false,
  pingBoundMs: 100,
};

async function pingOutcome(server: string): Promise<{ status: string; message: string }> {
  const target = new StdioTarget(
    { command: process.execPath, args: [join(PACKAGE_DIR, 'corpus', 'ping', server)], env: {} },
    10_000,
    server,
  );
  try {
    const discovery = await discover(target, 10_000);
    const state = new RevisionState('2025-11-25', target, SETTINGS, discovery);
    const ctx = new ProbeContext(state);
    await legacySessionBasics.run(ctx);
    await state.close();
    await releaseSpares(discovery);
    const outcome = ctx.seal().find((o) => o.check === PING);
    return { status: outcome?.status ?? 'missing', message: outcome?.message ?? '' };
  } finally {
    await target.dispose();
  }
}

describe('lifecycle.ping: "respond promptly"', () => {
  afterEach(() => {
    expect(trackedGroupCount()).toBe(0);
  });

  it('fails a server that holds pings back while it answers the rest at once', async () => {
    const outcome = await pingOutcome('ping-held-back.mjs');
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toMatch(
      /^ping answered late: the first ping took \d+ ms \(bound 100 ms\), a second \d+ ms, an unknown method \d+ ms$/,
    );
  }, 30_000);

  it('passes a server whose pings are no slower than its other answers (a loaded machine)', async () => {
    const outcome = await pingOutcome('everything-slow.mjs');
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toMatch(/not slower than the server's other answers of the moment$/);
  }, 30_000);
});
