/**
 * The curation helpers generated projects use in src/custom/ (five fleet servers curate with them): which
 * arguments stay, fixed path values, loosened arguments, compact output schemas, and pagination.
 */
import { describe, expect, it } from 'vitest';
import { applyCuration, READ, shallowSchema, withoutArgs, type Curation } from './curate.js';
import type { OperationTool } from './model.js';

const listIssues: OperationTool = {
  name: 'listIssues',
  description: 'generated',
  method: 'get',
  path: '/sites/{site}/issues',
  group: 'issues',
  inputSchema: {
    type: 'object',
    properties: {
      site: { type: 'string' },
      query: { type: 'object', description: 'a filter', properties: { a: { type: 'string' } } },
      cursor: { type: 'string' },
      max_pages: { type: 'integer' },
      expand: { type: 'array', items: { type: 'string' } },
      label: { type: 'string' },
    },
    required: ['site'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      items: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' } } } },
      next: { type: ['string', 'null'], description: 'the cursor' },
    },
    required: ['items'],
  },
  annotations: { readOnlyHint: true },
  params: [
    { arg: 'site', name: 'site', in: 'path', required: true, style: 'simple', explode: false },
    { arg: 'query', name: 'query', in: 'query', required: false, style: 'deepObject', explode: true },
    { arg: 'cursor', name: 'cursor', in: 'query', required: false, style: 'form', explode: true },
    { arg: 'expand', name: 'expand', in: 'query', required: false, style: 'form', explode: true },
  ],
  body: {
    contentType: 'application/json',
    encoding: 'json',
    required: false,
    properties: [['label', 'label']],
  },
  security: [],
  pagination: { arg: 'max_pages', kind: 'cursor', param: 'cursor', next: ['next'] },
  pointer: '/paths/~1sites~1{site}~1issues/get',
};

const properties = (tool: OperationTool) => Object.keys(tool.inputSchema['properties'] as object);

/** listIssues curated as `list_issues`, with the rest of the curation as given. */
const curated = (rest: Partial<Curation>) =>
  applyCuration(listIssues, {
    name: 'list_issues',
    title: 'List issues',
    description: 'Issues of a site.',
    annotations: READ,
    ...rest,
  });

describe('applyCuration', () => {
  it('keeps the arguments asked for and the required ones, names and annotates the tool', () => {
    const tool = curated({ keep: ['cursor', 'max_pages'] });
    expect(tool.name).toBe('list_issues');
    expect(tool.annotations).toEqual({ title: 'List issues', ...READ });
    expect(properties(tool)).toEqual(['site', 'cursor', 'max_pages']);
    expect(tool.params.map((param) => param.arg)).toEqual(['site', 'cursor']);
    expect(tool.body?.properties).toEqual([]);
    expect(tool.pagination).toEqual(listIssues.pagination);
    // The default output schema: the top level and its types only.
    expect(tool.outputSchema).toEqual({
      type: 'object',
      properties: { items: { type: 'array' }, next: { type: ['string', 'null'] } },
      required: ['items'],
    });
  });

  it('writes fixed values into the path, loosens deep arguments, drops pagination whose argument is dropped', () => {
    const tool = curated({ fixed: { site: 'my site' }, keep: ['query'], loosen: ['query'], output: 'none' });
    expect(tool.path).toBe('/sites/my%20site/issues');
    expect(properties(tool)).toEqual(['query']);
    expect(tool.inputSchema['required']).toEqual([]);
    expect((tool.inputSchema['properties'] as Record<string, unknown>)['query']).toEqual({
      type: 'object',
      description: 'a filter',
    });
    expect(tool.pagination).toBeUndefined();
    expect(tool.outputSchema).toBeUndefined();
  });

  it('keeps every argument and the full output schema when asked', () => {
    const tool = curated({ output: 'full' });
    expect(properties(tool)).toEqual(properties(listIssues));
    expect(tool.outputSchema).toEqual(listIssues.outputSchema);
  });
});

describe('withoutArgs and shallowSchema', () => {
  it('removes arguments with their bindings', () => {
    const tool = withoutArgs(listIssues, ['expand', 'label']);
    expect(properties(tool)).toEqual(['site', 'query', 'cursor', 'max_pages']);
    expect(tool.params.map((param) => param.arg)).toEqual(['site', 'query', 'cursor']);
    expect(tool.body?.properties).toEqual([]);
  });

  it('has no shallow form of a non-object schema', () => {
    expect(shallowSchema(undefined)).toBeUndefined();
    expect(shallowSchema({ type: 'array', items: {} })).toBeUndefined();
  });
});
