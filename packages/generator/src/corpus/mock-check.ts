/**
 * Calls tools of an API against a Prism mock of the same description: every call with schema-valid sample
 * arguments must reach a 2xx (not `isError`), Prism must report no request violating the description, and
 * every message the server sends must validate against the official MCP schema. Used by the mock tests
 * (sampled) and by `npm run corpus:openapi -- --mock` (every tool).
 */
import { compileSchema, type JsonSchema } from 'mcpengine/schema';
import { loadDescription } from '../load/load.js';
import { buildApiModel } from '../map/build.js';
import { requiredVariables } from '../runtime/auth.js';
import type { ApiModel, OperationTool } from '../runtime/model.js';
import { sampleArguments, sampleValue } from '../sample.js';
import { createOpenApiServer } from '../serve/server.js';
import { connect } from './client.js';
import { startPrism, type PrismMock } from './prism.js';

/** How a call whose sample arguments fail the tool's own input schema is reported (not called). */
export const SAMPLER_BUG = 'sampler bug: the sample arguments do not validate against the input schema';

export interface MockCallOutcome {
  readonly tool: string;
  readonly ok: boolean;
  readonly detail: string;
}

export interface MockCheck {
  readonly api: string;
  readonly tools: number;
  readonly called: number;
  readonly failures: readonly MockCallOutcome[];
  readonly violations: readonly string[];
  readonly wireViolations: number;
  readonly listedTools: number;
  /** When the run of this API started (ISO) and how long it took: set by `--mock`. */
  readonly ranAt?: string;
  readonly ms?: number;
}

/**
 * Sample arguments for a call against Prism. Prism 5.14 deserialises `deepObject` encodings (urlencoded and
 * multipart bodies, `style: deepObject` query parameters) into an empty object for every such property,
 * present or not, and then reports the object's required fields as missing (seen on Stripe: the optional
 * `cart` of `set_reader_display`, the optional `customer_details` query parameter of `GET
 * /v1/checkout/sessions`, the optional `file_link_data` of multipart `POST /v1/files`); so those optional
 * object arguments are sent filled in. Everything sent stays schema-valid (checked before the call).
 */
export function mockArguments(tool: OperationTool): Record<string, unknown> {
  const args = sampleArguments(tool.inputSchema);
  const properties = (tool.inputSchema['properties'] ?? {}) as Record<string, Record<string, unknown>>;
  const deep = [
    ...(tool.body?.encoding === 'form' || tool.body?.encoding === 'multipart'
      ? (tool.body.properties ?? []).map(([arg]) => arg)
      : []),
    ...tool.params.filter((param) => param.style === 'deepObject').map((param) => param.arg),
  ];
  for (const arg of deep) {
    const schema = properties[arg];
    if (schema === undefined || schema['type'] !== 'object') continue;
    args[arg] = fillObjects(schema, args[arg] ?? sampleValue(schema), 0);
  }
  for (const param of tool.params) {
    const schema = properties[param.arg];
    if (typeof args[param.arg] !== 'number' || schema === undefined) continue;
    const text = textVariant(schema);
    if (text !== undefined) args[param.arg] = text;
  }
  return args;
}

/**
 * Prism 5.14 reads a parameter's text, coerces it and checks it against the description's `oneOf`: a number
 * like `1` then matches both variants of `oneOf: [integer, string]` and is refused ("must match exactly one
 * schema in oneOf"; GitHub's `workflow_id`, `pages_deployment_id`), although the API takes it. So such
 * parameters get a non-numeric string of the string variant, when the tool's schema allows one.
 */
function textVariant(schema: Record<string, unknown>): string | undefined {
  const variants = (schema['anyOf'] ?? schema['oneOf']) as Record<string, unknown>[] | undefined;
  if (!Array.isArray(variants)) return undefined;
  const numeric = variants.some((v) => v['type'] === 'integer' || v['type'] === 'number');
  const string = variants.find((v) => v['type'] === 'string');
  if (!numeric || string === undefined) return undefined;
  const value = sampleValue(string);
  return typeof value === 'string' &&
    Number.isNaN(Number(value)) &&
    compileSchema(schema as JsonSchema).is(value)
    ? value
    : undefined;
}

/** Fills every optional object property below a deepObject-encoded value (Prism's emptiness applies at every level). */
function fillObjects(schema: Record<string, unknown>, value: unknown, depth: number): unknown {
  if (depth > 6 || typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const properties = (schema['properties'] ?? {}) as Record<string, Record<string, unknown>>;
  const out = { ...(value as Record<string, unknown>) };
  for (const [name, property] of Object.entries(properties)) {
    if (property['type'] !== 'object') continue;
    out[name] = fillObjects(property, out[name] ?? sampleValue(property), depth + 1);
  }
  return out;
}

/** Every `step`-th tool from `offset`, so a sample spreads across the whole description. */
export function sampleTools(tools: readonly OperationTool[], count: number | 'all'): OperationTool[] {
  if (count === 'all' || count >= tools.length) return [...tools];
  const step = tools.length / count;
  return Array.from({ length: count }, (_, i) => tools[Math.floor(i * step)]!);
}

export function dummyCredentials(api: ApiModel): Record<string, string> {
  const env: Record<string, string> = {};
  for (const scheme of api.schemes)
    for (const name of requiredVariables(scheme)) env[name] = 'mock-credential-0123';
  return env;
}

export interface MockOptions {
  count: number | 'all';
  name?: string;
  /** Inline references this deep for Prism (see `startPrism`); only for descriptions Prism cannot start on. */
  refDepth?: number;
  onProgress?: (done: number, total: number) => void;
}

/** A description loaded and mapped, and Prism serving the operations to call: ready for `callAgainstMock`. */
export interface PreparedMock {
  readonly label: string;
  readonly api: ApiModel;
  readonly chosen: readonly OperationTool[];
  readonly prism: PrismMock;
}

/**
 * Loads and maps a description and starts Prism on the operations to call. Separate from the calls so that
 * several Prism start-ups (seconds each) can overlap.
 */
export async function prepareMock(
  label: string,
  description: string,
  options: MockOptions,
): Promise<PreparedMock> {
  const loaded = await loadDescription(description);
  const { api } = buildApiModel(loaded, options.name === undefined ? {} : { name: options.name });
  const chosen = sampleTools(api.tools, options.count);
  // Prism gets the operations under test only (all of them when every tool is called).
  const prism = await startPrism(description, {
    ...(options.refDepth === undefined ? {} : { refDepth: options.refDepth }),
    ...(options.count === 'all' && options.refDepth === undefined
      ? {}
      : { paths: [...new Set(chosen.map((tool) => tool.path))] }),
  });
  return { label, api, chosen, prism };
}

export async function checkAgainstMock(
  label: string,
  description: string,
  options: MockOptions,
): Promise<MockCheck> {
  return callAgainstMock(await prepareMock(label, description, options), options);
}

/** Calls the prepared tools one by one, then stops Prism. */
export async function callAgainstMock(
  prepared: PreparedMock,
  options: Pick<MockOptions, 'onProgress'> = {},
): Promise<MockCheck> {
  const { label, api, chosen, prism } = prepared;
  try {
    const served = createOpenApiServer(api, {
      baseUrl: prism.url,
      env: dummyCredentials(api),
      expose: 'all',
      fetch: prism.fetch,
      maxRetries: 0,
      log: () => undefined,
    });
    const client = await connect(served.server);
    try {
      const listed = await client.tools();
      const failures: MockCallOutcome[] = [];
      let done = 0;
      for (const tool of chosen) {
        const args = mockArguments(tool);
        // The sampler's output is checked before the call: an invalid one is our bug, never the API's or Prism's.
        const check = compileSchema(tool.inputSchema as JsonSchema).validate(args);
        if (!check.valid) {
          failures.push({
            tool: tool.name,
            ok: false,
            detail: `${SAMPLER_BUG}: ${check.issues
              .slice(0, 3)
              .map((issue) => `${issue.instancePath || '(root)'} ${issue.message}`)
              .join('; ')} in ${JSON.stringify(args).slice(0, 300)}`,
          });
          options.onProgress?.(++done, chosen.length);
          continue;
        }
        const before = prism.violations.length;
        const result = await client.call(tool.name, args);
        const text = result.content.map((c) => (c.type === 'text' ? c.text : c.type)).join(' ');
        if (result.isError === true)
          failures.push({
            tool: tool.name,
            ok: false,
            detail: `${JSON.stringify(args)} → ${text.slice(0, 600)}${prism.violations.length > before ? ` (Prism: ${prism.violations.slice(before).join('; ').slice(0, 600)})` : ''}`,
          });
        else if (prism.violations.length > before)
          failures.push({
            tool: tool.name,
            ok: false,
            detail: `Prism: ${prism.violations.slice(before).join('; ').slice(0, 600)}`,
          });
        options.onProgress?.(++done, chosen.length);
      }
      return {
        api: label,
        tools: served.tools.length,
        called: chosen.length,
        failures,
        violations: prism.violations,
        wireViolations: client.tap.violations.length,
        listedTools: listed.length,
      };
    } finally {
      await client.close();
    }
  } finally {
    await prism.stop();
  }
}
