/**
 * Fences over HTTP (docs/validator/README.md, "Waiting for silence, without waiting"): a server that never
 * answers garbage input keeps its answer stream open (Streamable HTTP) or sends nothing on the event stream
 * (HTTP+SSE). The validator must not wait its quick time limit for each such input: once the POST that carried
 * the input was answered, a ping on the same session proves the server read it and still serves, and a short
 * grace after that ping's answer ends the wait. The findings say so, which is what these tests check (no
 * timing is asserted: the message names the fence only when the fence ended the wait).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_DIR } from './paths.js';
import { runValidation } from './run.js';
import { SseTarget, StreamableHttpTarget } from './target.js';
import { startHttpServer } from './test/corpus.js';

const SERVER = join(PACKAGE_DIR, 'corpus', 'fences', 'garbage-unanswered.mjs');
const SETTINGS = {
  requestTimeoutMs: 10_000,
  probeTimeoutMs: 30_000,
  callTools: new Set<string>(),
  callAllTools: false,
};

describe.each(['http', 'sse'] as const)('fences over %s', (transport) => {
  it('end the wait for answers to garbage input that never come', async () => {
    const server = await startHttpServer(
      process.execPath,
      [SERVER, `--${transport}`, '--port', '0'],
      /corpus server on (http:\/\/\S+)/,
    );
    try {
      const http = { url: server.url, headers: {}, timeoutMs: 10_000 };
      const report = await runValidation({
        target: transport === 'http' ? new StreamableHttpTarget(http) : new SseTarget(http),
        revisions: ['2025-11-25'],
        settings: SETTINGS,
        totalTimeoutMs: 120_000,
      });
      const checks = report.revisions[0]!.checks;
      for (const id of ['jsonrpc.parse-error', 'jsonrpc.invalid-request']) {
        expect(checks[id]?.status, id).toBe('fail');
        expect(checks[id]?.message, id).toMatch(
          /no error response: a ping sent on the same session once its POST was answered was answered \(in \d+ ms\), and nothing more came within \d+ ms/,
        );
      }
      expect(checks['jsonrpc.recovers']?.status).toBe('pass');
      // Replies to garbage input are robustness findings: they alone do not fail the run.
      expect(report.exitCode).toBe(0);
    } finally {
      await server.stop();
    }
  }, 60_000);
});
