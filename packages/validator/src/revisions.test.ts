/**
 * The revision facts that the official schemas can confirm are checked against them, so a wrong row (or a new
 * revision added carelessly) fails here instead of producing false verdicts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REVISIONS } from './catalog/model.js';
import { factsOf, REVISION_FACTS } from './revisions.js';
import { BUNDLED_SPEC_DIR } from '@mcpengine/oracle';

function definitions(revision: string): Record<string, unknown> {
  const schema = JSON.parse(readFileSync(join(BUNDLED_SPEC_DIR, revision, 'schema.json'), 'utf8')) as {
    definitions?: Record<string, unknown>;
    $defs?: Record<string, unknown>;
  };
  return schema.definitions ?? schema.$defs ?? {};
}

describe('revision facts', () => {
  it('has a row for every revision of the catalog', () => {
    expect(Object.keys(REVISION_FACTS).sort()).toEqual([...REVISIONS].sort());
  });

  for (const revision of REVISIONS) {
    it(`agrees with the official schema of ${revision}`, () => {
      const defs = definitions(revision);
      const facts = factsOf(revision);
      const names = Object.keys(defs);
      expect(names.some((name) => name.includes('Batch'))).toBe(facts.batching === 'required');
      expect('ToolAnnotations' in defs).toBe(facts.toolAnnotations);
      expect('ElicitRequest' in defs).toBe(facts.elicitation !== 'none');
      expect(JSON.stringify(defs['Tool'] ?? {}).includes('outputSchema')).toBe(facts.structuredContent);
      expect('CreateTaskResult' in defs).toBe(facts.coreTasks);
      expect('DiscoverRequest' in defs).toBe(facts.era === 'modern');
    });
  }
});
