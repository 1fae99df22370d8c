/**
 * Progressive disclosure by token cost: a few operations with huge schemas are put behind discovery, many small
 * ones above the operation bound too, and `expose` always wins. The estimate uses the API's measured tokens per
 * byte; `measureTokensPerByte` is checked against the real tokenizer's count of the same list.
 */
import { describe, expect, it } from 'vitest';
import { createOpenApiServer } from '../serve/server.js';
import { measureTokensPerByte, toolsListCost } from '../tokens.js';
import type { ApiModel, OperationTool } from './model.js';
import { DEFAULT_TOKEN_THRESHOLD, exposureFor } from './register.js';

function op(name: string, properties: number): OperationTool {
  return {
    name,
    description: `Operation ${name}`,
    method: 'get',
    path: `/${name}`,
    group: name.startsWith('a') ? 'alpha' : 'beta',
    inputSchema: {
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: properties }, (_, i) => [
          `field_${i}`,
          { type: 'string', description: `The field number ${i} of ${name}, described at some length.` },
        ]),
      ),
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
    params: [],
    security: [],
    pointer: `/paths/~1${name}/get`,
  };
}

function api(tools: OperationTool[], tokensPerByte?: number): ApiModel {
  return {
    title: 'Disclosure',
    version: '1',
    envPrefix: 'D',
    schemes: [],
    tools,
    ...(tokensPerByte === undefined ? {} : { tokensPerByte }),
  };
}

const serve = (model: ApiModel, expose?: 'all' | 'groups') =>
  createOpenApiServer(model, {
    baseUrl: 'http://127.0.0.1:9',
    log: () => undefined,
    ...(expose === undefined ? {} : { expose }),
  });

describe('progressive disclosure', () => {
  it('hides a few operations whose list would cost more than the token threshold', async () => {
    // 10 operations of 300 properties each: far under 40 operations, far over 20,000 tokens.
    const tools = Array.from({ length: 10 }, (_, i) => op(`a${i}`, 300));
    const ratio = await measureTokensPerByte(tools);
    const served = serve(api(tools, ratio));
    expect(served.registration.exposure).toBe('groups');
    expect(served.registration.estimatedTokens).toBeGreaterThan(DEFAULT_TOKEN_THRESHOLD);
    // The estimate is the real tokenizer's count of the full list, within a few percent.
    const full = await toolsListCost(serve(api(tools, ratio), 'all').server);
    expect(full.tokens).toBeGreaterThan(DEFAULT_TOKEN_THRESHOLD);
    expect(Math.abs(served.registration.estimatedTokens! - full.tokens) / full.tokens).toBeLessThan(0.05);
    const listed = await toolsListCost(served.server);
    expect(listed.tools).toBe(2);
  });

  it('lists a small API, and a large one once asked with expose all', async () => {
    const small = Array.from({ length: 10 }, (_, i) => op(`a${i}`, 3));
    const served = serve(api(small, await measureTokensPerByte(small)));
    expect(served.registration.exposure).toBe('all');
    expect(served.registration.estimatedTokens).toBeLessThan(DEFAULT_TOKEN_THRESHOLD);
    const big = Array.from({ length: 10 }, (_, i) => op(`a${i}`, 300));
    expect(serve(api(big), 'all').registration.exposure).toBe('all');
    expect(serve(api(small), 'groups').registration.exposure).toBe('groups');
  });

  it('keeps the operation count as a second bound: more than 40 small operations are grouped', () => {
    const many = Array.from({ length: 41 }, (_, i) => op(`b${i}`, 1));
    const served = serve(api(many));
    expect(served.registration.exposure).toBe('groups');
    // Decided by the count alone: the list's size was not needed.
    expect(served.registration.estimatedTokens).toBeUndefined();
    expect(exposureFor(41, { threshold: 50 }, 0)).toBe('all');
    expect(exposureFor(5, { tokenThreshold: 100, tokensPerByte: 0.25 }, 800)).toBe('groups');
    expect(exposureFor(5, { tokenThreshold: 100, tokensPerByte: 0.25 }, 400)).toBe('all');
  });

  it('measures no ratio without operations, and a plausible one for JSON schemas', async () => {
    expect(await measureTokensPerByte([])).toBeUndefined();
    const ratio = await measureTokensPerByte([op('a', 5)]);
    expect(ratio).toBeGreaterThan(0.1);
    expect(ratio).toBeLessThan(0.5);
  });
});
