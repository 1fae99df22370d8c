/**
 * The official 2026-07-28 examples (`examples/<Definition>/*.json`) must validate against the definition their
 * folder is named after, and those that are whole messages, results or errors must pass the oracle.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { isJsonObject } from './message-shape.js';
import type { Revision, Side } from './revisions.js';
import { defaultOracle, type CheckContext } from './wire-oracle.js';

const REVISION: Revision = '2026-07-28';
const oracle = defaultOracle();
const schema = oracle.schemas.revision(REVISION);
const examplesDir = join(oracle.schemas.specDir, REVISION, 'examples');

const examples = readdirSync(examplesDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((folder) =>
    readdirSync(join(examplesDir, folder.name))
      .filter((file) => file.endsWith('.json'))
      .map((file) => ({
        definition: folder.name,
        file: `${folder.name}/${file}`,
        example: JSON.parse(readFileSync(join(examplesDir, folder.name, file), 'utf8')) as unknown,
      })),
  );

/**
 * Official examples that break a rule of their own schema, with the error the oracle must report. Remove an entry
 * when the spec fixes the example: the test then fails as a reminder.
 */
const KNOWN_DEFECTS: Readonly<Record<string, string>> = {
  // `ReadResourceResult` requires ttlMs and cacheScope. The folder definition `ReadResourceResultResponse` still
  // accepts the example because its `result` is `InputRequiredResult | ReadResourceResult`, and
  // `InputRequiredResult` requires nothing but `resultType`.
  'ReadResourceResultResponse/read-resource-result-response.json':
    "/result must have required property 'cacheScope'",
};

/** How the oracle should see an example: as sent by whom, in reply to what; `[]` if it is only a fragment. */
function asWireMessages(definition: string, example: unknown): { message: unknown; ctx: CheckContext }[] {
  if (!isJsonObject(example)) return [];
  const server = (message: unknown, inReplyTo?: string) => ({
    message,
    ctx: { revision: REVISION, sender: 'server' as Side, ...(inReplyTo !== undefined && { inReplyTo }) },
  });
  if (example['jsonrpc'] !== undefined) {
    const method = example['method'];
    if (typeof method === 'string') {
      const kind = 'id' in example ? 'request' : 'notification';
      return schema.methods
        .sendersOf(kind, method)
        .map((sender) => ({ message: example, ctx: { revision: REVISION, sender } }));
    }
    if ('result' in example)
      return [server(example, schema.methods.methodAnsweredBy(definition.replace(/Response$/, '')))];
    return [server(example)];
  }
  // Bare results and error objects: wrapped in the envelope they travel in.
  if (typeof example['resultType'] === 'string') {
    return [server({ jsonrpc: '2.0', id: 1, result: example }, schema.methods.methodAnsweredBy(definition))];
  }
  if (typeof example['code'] === 'number') return [server({ jsonrpc: '2.0', id: 1, error: example })];
  return [];
}

describe(`official ${REVISION} examples`, () => {
  test('there are examples to check', () => {
    expect(examples.length).toBeGreaterThanOrEqual(129);
  });

  test.each(examples)('$file validates against #/$defs/$definition', ({ definition, example }) => {
    expect(schema.document.has(definition)).toBe(true);
    expect(schema.document.validate(definition, example)).toEqual([]);
  });

  const wire = examples.flatMap(({ file, definition, example }) =>
    asWireMessages(definition, example).map(({ message, ctx }) => ({
      file,
      sender: ctx.sender,
      message,
      ctx,
    })),
  );

  test('every whole message, result and error example reaches the oracle', () => {
    // 10 requests, 8 notifications (cancellation counted for both senders), 11 responses, 3 error responses,
    // 16 bare results, 5 bare errors.
    expect(wire.length).toBeGreaterThanOrEqual(50);
  });

  test.each(wire)('$file passes the oracle as sent by the $sender', ({ file, message, ctx }) => {
    const violation = oracle.check(message, ctx);
    const defect = KNOWN_DEFECTS[file];
    if (defect === undefined) expect(violation).toBeNull();
    else expect(violation?.errors).toContain(defect);
  });
});
