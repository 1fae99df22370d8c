/**
 * Real APIs against a real mock: Prism serves each description and checks every request against it. A sample
 * of tools per API is called here (six spread evenly across the description — every other tool of the twelve
 * this test called before — and all eleven of Search Console; `npm run corpus:openapi -- --mock` calls every
 * tool of all six): each call must reach a 2xx, Prism must see no request that violates the description, and
 * every message our server sends must be schema-valid MCP.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { callAgainstMock, prepareMock, type PreparedMock } from './corpus/mock-check.js';
import { apiDescription } from './corpus/sources.js';

// Prism gets only the sampled operations and what they reference (lossless for them; GitHub's whole description
// takes Prism about a minute to start). Prism cannot start on Stripe's web of references: it gets the sampled operations with their references inlined two levels deep (see startPrism).
const APIS = [
  ['Twilio API v2010', 'twilio', 6, undefined],
  ['Google Search Console', 'searchconsole', 'all', undefined],
  ['Stripe', 'stripe', 6, 2],
  ['GitHub', 'github', 6, undefined],
  ['Slack', 'slack', 6, undefined],
  ['n8n', 'n8n', 6, undefined],
] as const;

// The six Prism start-ups (seconds each) overlap, and each API's calls start as soon as its own Prism is up:
// the six are independent (their own Prism process, server and client), so the tests run concurrently. Within
// an API the calls stay sequential, so that each Prism violation is attributed to the call that caused it.
const prepared = new Map<string, Promise<PreparedMock>>();
beforeAll(() => {
  for (const [label, key, count, refDepth] of APIS) {
    const ready = prepareMock(label, apiDescription(key), {
      count,
      ...(refDepth === undefined ? {} : { refDepth }),
    });
    ready.catch(() => undefined); // reported by its own test
    prepared.set(label, ready);
  }
});
afterAll(async () => {
  // Prism processes of tests that did not get to call (a failure before): stopped here.
  for (const ready of prepared.values()) await ready.then((p) => p.prism.stop()).catch(() => undefined);
});

describe.concurrent('tools called against a Prism mock of their own description', () => {
  for (const [label] of APIS) {
    it(`${label}: every sampled call reaches a 2xx and Prism finds no violation`, async ({ expect }) => {
      const outcome = await callAgainstMock(await prepared.get(label)!);
      expect(outcome.listedTools).toBe(outcome.tools);
      expect(outcome.failures).toEqual([]);
      expect(outcome.violations).toEqual([]);
      expect(outcome.wireViolations).toBe(0);
    }, 600_000); // a hang guard, not a speed requirement
  }
});
