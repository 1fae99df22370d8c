/**
 * Real APIs against a real mock: Prism serves each description and checks every request against it. A sample
 * of tools per API is called here (every 12th-ish tool, spread across the description; `npm run
 * corpus:openapi -- --mock` calls all of them): each call must reach a 2xx, Prism must see no request that
 * violates the description, and every message our server sends must be schema-valid MCP.
 */
import { describe, expect, it } from 'vitest';
import { checkAgainstMock } from './corpus/mock-check.js';
import { apiDescription } from './corpus/sources.js';

// Prism gets only the sampled operations and what they reference (lossless for them; GitHub's whole description
// takes Prism about a minute to start). Prism cannot start on Stripe's web of references: it gets the sampled operations with their references inlined two levels deep (see startPrism).
const APIS = [
  ['Twilio API v2010', 'twilio', 12, undefined],
  ['Google Search Console', 'searchconsole', 'all', undefined],
  ['Stripe', 'stripe', 12, 2],
  ['GitHub', 'github', 12, undefined],
  ['Slack', 'slack', 12, undefined],
  ['n8n', 'n8n', 12, undefined],
] as const;

describe('tools called against a Prism mock of their own description', () => {
  for (const [label, key, count, refDepth] of APIS) {
    it(`${label}: every sampled call reaches a 2xx and Prism finds no violation`, async () => {
      const outcome = await checkAgainstMock(label, apiDescription(key), {
        count,
        ...(refDepth === undefined ? {} : { refDepth }),
      });
      expect(outcome.listedTools).toBe(outcome.tools);
      expect(outcome.failures).toEqual([]);
      expect(outcome.violations).toEqual([]);
      expect(outcome.wireViolations).toBe(0);
    }, 600_000); // a hang guard, not a speed requirement
  }
});
