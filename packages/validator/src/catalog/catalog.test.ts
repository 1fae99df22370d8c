/**
 * The requirement catalog: every statement is classified, every check it names exists (facets included), and
 * every check the validator has is named. That the committed catalog is what the extractor makes from the spec
 * pages today is `npm run spec:check` (it needs the spec checkout; `.ci/run` runs it).
 */
import { describe, expect, it } from 'vitest';
import '../checks/index.js';
import { allChecks, checkDef, parseCheckRef } from '../checks/registry.js';
import '../schema-observer.js';
import { catalogStats, loadCatalog } from './catalog.js';
import { REVISIONS } from './model.js';
import { normalizeSentence } from './ids.js';

describe('the requirement catalog', () => {
  it('has the documented size, and a check for every testable statement', () => {
    const stats = REVISIONS.map((revision) => catalogStats(loadCatalog(revision)));
    expect(stats).toEqual([
      {
        revision: '2024-11-05',
        statements: 228,
        bindingServer: 161,
        testable: 73,
        covered: 73,
        unclassified: 0,
      },
      {
        revision: '2025-03-26',
        statements: 334,
        bindingServer: 241,
        testable: 90,
        covered: 90,
        unclassified: 0,
      },
      {
        revision: '2025-06-18',
        statements: 389,
        bindingServer: 252,
        testable: 104,
        covered: 104,
        unclassified: 0,
      },
      {
        revision: '2025-11-25',
        statements: 664,
        bindingServer: 404,
        testable: 162,
        covered: 162,
        unclassified: 0,
      },
      {
        revision: '2026-07-28',
        statements: 788,
        bindingServer: 460,
        testable: 220,
        covered: 220,
        unclassified: 0,
      },
    ]);
  });

  it('gives every statement a unique, stable id and a classification', () => {
    for (const revision of REVISIONS) {
      const { statements } = loadCatalog(revision);
      expect(new Set(statements.map((s) => s.id)).size).toBe(statements.length);
      for (const statement of statements) {
        expect(statement.status, statement.id).toBe('classified');
        expect(statement.revisions).toContain(revision);
        expect(statement.url).toMatch(
          new RegExp(`^https://modelcontextprotocol\\.io/specification/${revision}([/#]|$)`),
        );
        if (statement.descriptive !== true)
          expect(statement.keywords.length, statement.id).toBeGreaterThan(0);
        // A statement binding the server either names its checks or says why it cannot be tested, never both.
        if (statement.subject === 'server' || statement.subject === 'both') {
          expect(
            (statement.checks ?? []).length > 0 !== (statement.untestable !== undefined),
            statement.id,
          ).toBe(true);
        }
      }
    }
    const jsonRpc = loadCatalog('2025-11-25').statements.find((s) => s.id === 'basic-af3136fb')!;
    expect(jsonRpc.sentence).toBe(
      'All messages between MCP clients and servers MUST follow the JSON-RPC 2.0 specification.',
    );
    expect(jsonRpc.level).toBe('MUST');
    expect(jsonRpc.revisions).toEqual(REVISIONS);
    expect(
      normalizeSentence(
        'All messages  between MCP clients and servers **MUST** follow the JSON-RPC 2.0 specification.',
      ),
    ).toBe(normalizeSentence(jsonRpc.sentence));
  });

  it('names only checks that exist, with facets they declare, and names every check that is not advisory', () => {
    const named = new Set<string>();
    for (const revision of REVISIONS) {
      for (const statement of loadCatalog(revision).statements) {
        for (const ref of statement.checks ?? []) {
          const { check, facet } = parseCheckRef(ref);
          const def = checkDef(check);
          expect(def, `${statement.id} names ${ref}`).toBeDefined();
          if (facet !== undefined) expect(def!.facets ?? [], `${statement.id} names ${ref}`).toContain(facet);
          named.add(check);
        }
      }
    }
    expect(
      allChecks()
        .filter((check) => check.advisory !== true && !named.has(check.id))
        .map((check) => check.id),
    ).toEqual([]);
  });

  it('keeps the statements made without a keyword, at the level their entry gives', () => {
    const schema = loadCatalog('2026-07-28').statements.find(
      (s) => s.id === 'basic-d-schema-source-of-truth',
    )!;
    expect(schema.descriptive).toBe(true);
    expect(schema.level).toBe('MUST');
    expect(schema.context).toContain('Definitional');
    const unknownTool = loadCatalog('2024-11-05').statements.find((s) => s.id === 'tools-d-unknown-tool')!;
    expect(unknownTool.level).toBe('SHOULD');
    expect(unknownTool.checks).toEqual(['tools.unknown-tool']);
  });
});
