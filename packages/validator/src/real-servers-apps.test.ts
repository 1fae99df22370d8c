/**
 * Real servers nobody here wrote, part of the real-server corpus (docs/validator/README.md, "Real servers"): the
 * official MCP Apps example servers `@modelcontextprotocol/server-pdf` and `-budget-allocator`, each over stdio
 * and over Streamable HTTP (their default transport). Their failed and warned requirements must be exactly the
 * rows of their expected-findings documents, where each MUST is proved with its spec sentence and evidence; a
 * verdict that drifts (a new false failure, a defect no longer caught) fails here.
 *
 * The four validations run two at a time (a validation mostly waits for its servers).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { trackedGroupCount } from '@mcpengine/wire';
import {
  documentedFindings,
  failedOrWarned,
  limiter,
  validateRealHttpServer,
  validateRealServer,
  type RealServer,
} from './test/validation.js';

/** A one-page PDF saying "Hello corpus", its cross-reference table computed, written to `file`. */
function writePdf(file: string): void {
  const text = 'BT /F1 12 Tf 20 50 Td (Hello corpus) Tj ET';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((object, index) => {
    const offset = pdf.length;
    pdf += `${index + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  writeFileSync(file, pdf, 'latin1');
}

/** The PDF server, given one local file (without one it would fetch its default PDF from the network). */
const PDF: RealServer = {
  name: '@modelcontextprotocol/server-pdf',
  document: 'server-pdf.md',
  entry: 'dist/index.js',
  prepare: (scratch) => writePdf(join(scratch, 'hello.pdf')),
  args: (scratch) => [join(scratch, 'hello.pdf')],
};

const BUDGET: RealServer = {
  name: '@modelcontextprotocol/server-budget-allocator',
  document: 'server-budget-allocator.md',
  entry: 'dist/index.js',
};

const limited = limiter(2);

describe('real MCP Apps servers', () => {
  afterAll(() => {
    expect(trackedGroupCount()).toBe(0);
  });

  for (const server of [PDF, BUDGET]) {
    it.concurrent(
      `${server.name} on stdio: exactly the documented findings`,
      async ({ expect }) => {
        const report = await limited(() =>
          validateRealServer({
            ...server,
            args: (scratch) => ['--stdio', ...(server.args?.(scratch) ?? [])],
          }),
        );
        expect(report.exitCode).toBe(1);
        expect(failedOrWarned(report)).toEqual(documentedFindings(server.document, 'stdio'));
      },
      150_000,
    );

    it.concurrent(
      `${server.name} on Streamable HTTP: exactly the documented findings`,
      async ({ expect }) => {
        const report = await limited(() =>
          validateRealHttpServer({
            ...server,
            transport: 'streamable-http',
            listen: (port) => ({ env: { PORT: String(port) } }),
            announce: /listening on http:\/\/localhost:\d+\/mcp/,
            path: '/mcp',
          }),
        );
        expect(report.exitCode).toBe(1);
        expect(failedOrWarned(report)).toEqual(documentedFindings(server.document, 'streamable-http'));
      },
      150_000,
    );
  }
});
