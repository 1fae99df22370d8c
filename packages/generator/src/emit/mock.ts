/**
 * The description the smoke test's Prism serves: only the operation the test calls. Prism 5.14 never finishes
 * starting on some full descriptions (Stripe's: one operation reaches 489 component schemas, many in cycles);
 * cut to one operation it starts in seconds, and still validates that operation's request against exactly the
 * schemas of the full description.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { pruneToPaths } from '../corpus/prism.js';
import type { OperationTool } from '../runtime/model.js';

/**
 * The description as written (references not resolved): JSON directly, YAML through the parser `load` uses.
 * Undefined when it cannot be parsed on its own (the smoke test then serves the description whole).
 */
export async function parseDescription(text: string): Promise<Record<string, unknown> | undefined> {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    // YAML: the parser reads files only.
  }
  const dir = mkdtempSync(join(tmpdir(), 'mcpengine-description-'));
  try {
    const file = join(dir, 'description.yaml');
    writeFileSync(file, text);
    return (await SwaggerParser.parse(file)) as unknown as Record<string, unknown>;
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The description cut to one operation and its success responses, with every component they reach
 * (`pruneToPaths`). Error responses are left out: the smoke test expects a 2xx, and an error schema can reach
 * the whole description (Stripe's `error` does). Undefined when the operation is not found or the description
 * references other files.
 */
export function mockDescription(
  description: Record<string, unknown>,
  tool: Pick<OperationTool, 'path' | 'method'>,
): Record<string, unknown> | undefined {
  const item = (description['paths'] as Record<string, Record<string, unknown>> | undefined)?.[tool.path];
  const operation = item?.[tool.method] as Record<string, unknown> | undefined;
  if (item === undefined || operation === undefined) return undefined;
  const responses = Object.fromEntries(
    Object.entries((operation['responses'] ?? {}) as Record<string, unknown>).filter(([code]) =>
      /^2/.test(code),
    ),
  );
  // Path-level entries (parameters, servers…) stay; the other methods of the path go.
  const methods = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
  const kept = Object.fromEntries(Object.entries(item).filter(([key]) => !methods.has(key)));
  kept[tool.method] = { ...operation, responses };
  return pruneToPaths({ ...description, paths: { [tool.path]: kept } }, [tool.path]);
}
