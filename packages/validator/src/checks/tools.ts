/**
 * Tools: the list, names and schemas; calls of the tools the validator may call (read-only ones by default);
 * output schemas against structured content; unknown tools and invalid arguments, each reported as the
 * revision says.
 */
import { factsOf } from '../revisions.js';
import type { Revision } from '../catalog/model.js';
import { brief, callEvidence } from '../evidence.js';
import { HttpChannel, isObject, resultOf, type JsonObject, type ParamHeader } from '@mcpengine/wire';
import { binaryProblems, CONTENT_BASE64, deepEqual, failProblems, textBlocks } from './content.js';
import type { ProbeContext } from './context.js';
import { errorCode, isError, isResult } from './expect.js';
import { invalidInstance, judgeSchema, sampleInstance, validates } from './instances.js';
import { CANCEL_WINDOW_MS, callTool } from './progress.js';
import {
  CACHING_HINTS,
  compareViewpoints,
  duplicates,
  judgeListing,
  listAll,
  PAGINATION_CURSORS,
} from './listing.js';
import type { Probe } from './probe.js';
import { defineCheck } from './registry.js';

export const TOOLS_LIST = defineCheck(
  'tools.list',
  'tools',
  'tools/list answers with the tools (every page readable)',
);
export const TOOLS_NAME_FORMAT = defineCheck(
  'tools.name-format',
  'tools',
  'Tool names are 1–128 characters of A–Z, a–z, 0–9, _, - and .',
  { facets: ['length', 'charset'] },
);
export const TOOLS_NAME_UNIQUE = defineCheck(
  'tools.name-unique',
  'tools',
  'Tool names are unique within the server',
);
export const TOOLS_INPUT_SCHEMA = defineCheck(
  'tools.input-schema',
  'tools',
  'Each inputSchema is a valid JSON Schema of its declared (or default) dialect, describing an object',
);
export const TOOLS_OUTPUT_SCHEMA = defineCheck(
  'tools.output-schema',
  'tools',
  'Each outputSchema is a valid JSON Schema of its declared (or default) dialect',
);
export const TOOLS_X_MCP_HEADER = defineCheck(
  'tools.x-mcp-header',
  'tools',
  'x-mcp-header annotations follow the constraints (token syntax, unique, primitive, statically reachable)',
  { facets: ['empty', 'token', 'control', 'unique', 'primitive', 'safe-integer', 'reachable'] },
);
export const TOOLS_DETERMINISTIC = defineCheck(
  'tools.deterministic-order',
  'tools',
  'tools/list returns the tools in the same order every time',
);
export const TOOLS_SAME_EVERYWHERE = defineCheck(
  'tools.list-per-connection',
  'tools',
  'tools/list returns the same set on another connection (no per-connection state)',
);
export const TOOLS_CALL = defineCheck(
  'tools.call',
  'tools',
  'A tool called with arguments valid under its inputSchema answers with a result (errors inside it, isError)',
  { facets: ['answered', 'tool-errors'] },
);
export const TOOLS_STRUCTURED = defineCheck(
  'tools.structured-content',
  'tools',
  'A tool with an outputSchema returns structuredContent that conforms to it',
);
export const TOOLS_STRUCTURED_TEXT = defineCheck(
  'tools.structured-text',
  'tools',
  'structuredContent is also returned serialized in a TextContent block',
);
export const TOOLS_EMBEDDED_NEEDS_RESOURCES = defineCheck(
  'tools.embedded-resources-capability',
  'tools',
  'A server that returns embedded resources implements the resources capability',
);
export const TOOLS_UNKNOWN = defineCheck(
  'tools.unknown-tool',
  'tools',
  'Calling an unknown tool is a protocol error: -32602 (Invalid params)',
);
export const TOOLS_ARGUMENTS_VALIDATED = defineCheck(
  'tools.arguments-validated',
  'tools',
  'Arguments that violate the input schema are rejected (a protocol error or an isError result), not executed',
);
export const TOOLS_INVALID_ARGUMENTS = defineCheck(
  'tools.invalid-arguments',
  'tools',
  'Invalid arguments are reported as the revision says: -32602 up to 2025-06-18, an isError result from 2025-11-25',
);

const NAME = /^[A-Za-z0-9_.-]{1,128}$/;
const TCHAR = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const MAX_CALLS = 60;

function defaultDialect(revision: Revision): '2020-12' | 'either' {
  return factsOf(revision).defaultSchemaDialect;
}

/** Every `x-mcp-header` in a schema, with whether it sits at a statically reachable property. */
export function xMcpHeaders(
  schema: unknown,
): { path: string[]; header: unknown; reachable: boolean; type: unknown; node: JsonObject }[] {
  const found: { path: string[]; header: unknown; reachable: boolean; type: unknown; node: JsonObject }[] =
    [];
  const walk = (node: unknown, path: string[], reachable: boolean): void => {
    if (Array.isArray(node)) {
      node.forEach((child) => walk(child, path, false));
      return;
    }
    if (!isObject(node)) return;
    if ('x-mcp-header' in node)
      found.push({
        path,
        header: node['x-mcp-header'],
        reachable: reachable && path.length > 0,
        type: node['type'],
        node,
      });
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties' && isObject(value)) {
        for (const [name, child] of Object.entries(value)) walk(child, [...path, name], reachable);
      } else if (key !== 'x-mcp-header') {
        walk(value, path, false);
      }
    }
  };
  walk(schema, [], true);
  return found;
}

interface Problem {
  readonly text: string;
  readonly facet: string;
}

/** Numbers an integer parameter's schema names (bounds, const, enum, default) outside ±(2^53 − 1). */
function unsafeIntegers(node: JsonObject): unknown[] {
  const values = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'const', 'default'].map(
    (key) => node[key],
  );
  if (Array.isArray(node['enum'])) values.push(...(node['enum'] as unknown[]));
  return values.filter(
    (value) => typeof value === 'number' && !Number.isSafeInteger(value) && Number.isInteger(value),
  );
}

function xMcpHeaderProblems(tool: JsonObject): Problem[] {
  const problems: Problem[] = [];
  const add = (text: string, facet: string): void => void problems.push({ text, facet });
  const seen = new Set<string>();
  for (const { path, header, reachable, type, node } of xMcpHeaders(tool['inputSchema'])) {
    const where = `${String(tool['name'])}: ${path.join('.') || '(root)'}`;
    if (typeof header !== 'string' || header === '')
      add(`${where}: x-mcp-header is empty or not a string`, 'empty');
    else if (!TCHAR.test(header)) {
      // eslint-disable-next-line no-control-regex
      const control = /[\x00-\x1f\x7f]/.test(header);
      add(
        `${where}: x-mcp-header ${JSON.stringify(header)} is not an HTTP token${control ? ' (it holds control characters)' : ''}`,
        'token',
      );
      if (control)
        add(`${where}: x-mcp-header ${JSON.stringify(header)} holds control characters`, 'control');
    } else if (seen.has(header.toLowerCase()))
      add(`${where}: x-mcp-header ${JSON.stringify(header)} is not unique`, 'unique');
    if (typeof header === 'string') seen.add(header.toLowerCase());
    if (!reachable) add(`${where}: x-mcp-header is not on a statically reachable property`, 'reachable');
    if (type !== 'string' && type !== 'integer' && type !== 'boolean')
      add(`${where}: x-mcp-header on a parameter of type ${brief(type)}`, 'primitive');
    const unsafe = type === 'integer' ? unsafeIntegers(node) : [];
    if (unsafe.length > 0)
      add(
        `${where}: the integer parameter names values outside the safe range: ${unsafe.join(', ')}`,
        'safe-integer',
      );
  }
  return problems;
}

export const toolsProbe: Probe = {
  name: 'tools',
  eras: ['legacy', 'modern'],
  checks: [
    TOOLS_LIST,
    TOOLS_NAME_FORMAT,
    TOOLS_NAME_UNIQUE,
    TOOLS_INPUT_SCHEMA,
    TOOLS_OUTPUT_SCHEMA,
    TOOLS_X_MCP_HEADER,
    TOOLS_DETERMINISTIC,
    TOOLS_SAME_EVERYWHERE,
    TOOLS_CALL,
    TOOLS_STRUCTURED,
    TOOLS_STRUCTURED_TEXT,
    TOOLS_EMBEDDED_NEEDS_RESOURCES,
    CONTENT_BASE64,
    TOOLS_UNKNOWN,
    TOOLS_INVALID_ARGUMENTS,
    TOOLS_ARGUMENTS_VALIDATED,
    PAGINATION_CURSORS,
    CACHING_HINTS,
  ],
  async run(ctx) {
    if (!ctx.has('tools')) {
      for (const check of this.checks)
        ctx.notApplicable(check, 'the server does not advertise the tools capability');
      return;
    }
    const { revision } = ctx;
    const listing = await listAll(ctx, 'tools/list', 'tools');
    judgeListing(ctx, 'tools/list', listing, 'tools');
    const firstPage = listing.pages[0];
    if (listing.failure !== undefined) {
      ctx.fail(
        TOOLS_LIST,
        `tools/list failed: ${listing.failure}`,
        listing.pages.slice(-1).map((call) => callEvidence(call, 'tools/list')),
      );
      return;
    }
    const tools = listing.items;
    ctx.inventory.tools = tools;
    const shared = ctx.settings.annotations;
    if (shared !== undefined) {
      if (factsOf(revision).toolAnnotations) {
        for (const tool of tools) {
          const annotations = tool['annotations'];
          if (
            isObject(annotations) &&
            annotations['readOnlyHint'] === true &&
            typeof tool['name'] === 'string'
          )
            shared.readOnly.add(tool['name']);
        }
        shared.settle();
      } else {
        // Annotations do not exist here: learn them from a newer revision's listing (bounded wait).
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([
          shared.settled,
          new Promise((resolve) => {
            timer = setTimeout(resolve, ctx.settings.probeTimeoutMs / 3);
          }),
        ]);
        clearTimeout(timer);
      }
    }
    ctx.pass(
      TOOLS_LIST,
      `${tools.length} tool(s) in ${listing.pages.length} page(s)`,
      firstPage ? [callEvidence(firstPage, 'tools/list')] : [],
    );
    const listEvidence = firstPage ? [callEvidence(firstPage, 'tools/list')] : [];
    const names = tools.map((tool) => tool['name']);

    if (factsOf(revision).toolNameRule) {
      const bad = names.filter((name) => typeof name !== 'string' || !NAME.test(name));
      const facets = bad.flatMap((name) =>
        typeof name !== 'string'
          ? ['length', 'charset']
          : [
              ...(name.length < 1 || name.length > 128 ? ['length'] : []),
              ...(/^[A-Za-z0-9_.-]*$/.test(name) ? [] : ['charset']),
            ],
      );
      ctx.expect(
        TOOLS_NAME_FORMAT,
        bad.length === 0,
        `${names.length} name(s) within the allowed characters and length`,
        `names outside 1–128 of [A-Za-z0-9_.-]: ${bad.map((n) => brief(n, 60)).join(', ')}`,
        listEvidence,
        facets,
      );
    } else {
      ctx.notApplicable(TOOLS_NAME_FORMAT, `${revision} sets no rules for tool names`);
    }
    const repeated = duplicates(tools, 'name');
    ctx.expect(
      TOOLS_NAME_UNIQUE,
      repeated.length === 0,
      'all names unique',
      `repeated names: ${repeated.join(', ')}`,
      listEvidence,
    );

    const inputProblems: string[] = [];
    const outputProblems: string[] = [];
    const unsupported: string[] = [];
    for (const tool of tools) {
      const name = String(tool['name']);
      const input = judgeSchema(tool['inputSchema'], defaultDialect(revision));
      if (input.ok === false) inputProblems.push(`${name}: ${input.problem}`);
      else if (input.ok === 'unsupported') unsupported.push(`${name}: ${input.problem}`);
      else if (isObject(tool['inputSchema']) && tool['inputSchema']['type'] !== 'object')
        inputProblems.push(
          `${name}: inputSchema type is ${brief(tool['inputSchema']['type'])}, not "object"`,
        );
      if (tool['outputSchema'] !== undefined) {
        const output = judgeSchema(tool['outputSchema'], defaultDialect(revision));
        if (output.ok === false) outputProblems.push(`${name}: ${output.problem}`);
      }
    }
    if (inputProblems.length > 0)
      ctx.fail(TOOLS_INPUT_SCHEMA, inputProblems.slice(0, 5).join('; '), listEvidence);
    else if (tools.length === 0) ctx.notRun(TOOLS_INPUT_SCHEMA, 'the server lists no tools');
    else if (unsupported.length === tools.length)
      ctx.notRun(TOOLS_INPUT_SCHEMA, unsupported.slice(0, 3).join('; '));
    else
      ctx.pass(
        TOOLS_INPUT_SCHEMA,
        `${tools.length - unsupported.length} input schema(s) valid`,
        listEvidence,
      );
    if (!factsOf(revision).structuredContent)
      ctx.notApplicable(TOOLS_OUTPUT_SCHEMA, `${revision} has no outputSchema`);
    else if (outputProblems.length > 0)
      ctx.fail(TOOLS_OUTPUT_SCHEMA, outputProblems.slice(0, 5).join('; '), listEvidence);
    else if (tools.some((tool) => tool['outputSchema'] !== undefined))
      ctx.pass(TOOLS_OUTPUT_SCHEMA, 'output schemas valid', listEvidence);
    else ctx.notApplicable(TOOLS_OUTPUT_SCHEMA, 'no tool declares an outputSchema');

    if (factsOf(revision).xMcpHeader) {
      const annotated = tools.filter((tool) => xMcpHeaders(tool['inputSchema']).length > 0);
      const problems = annotated.flatMap(xMcpHeaderProblems);
      if (annotated.length === 0) ctx.notApplicable(TOOLS_X_MCP_HEADER, 'no tool uses x-mcp-header');
      else {
        ctx.expect(
          TOOLS_X_MCP_HEADER,
          problems.length === 0,
          `${annotated.length} tool(s) with valid x-mcp-header`,
          problems
            .slice(0, 5)
            .map((p) => p.text)
            .join('; '),
          listEvidence,
          problems.map((p) => p.facet),
        );
      }
      // Mirror valid annotations into Mcp-Param-* headers on HTTP, as a conforming client must.
      const channel = await ctx.modernChannel();
      const headers = new Map<string, ParamHeader[]>();
      for (const tool of annotated) {
        headers.set(
          String(tool['name']),
          xMcpHeaders(tool['inputSchema'])
            .filter((h) => typeof h.header === 'string' && h.reachable)
            .map((h) => ({ path: h.path, header: h.header as string })),
        );
      }
      if (channel instanceof HttpChannel) channel.toolHeaders = headers;
      ctx.state.toolHeaders = headers;

      const again = await listAll(ctx, 'tools/list', 'tools');
      const againNames = again.items.map((tool) => tool['name']);
      ctx.expect(
        TOOLS_DETERMINISTIC,
        again.failure === undefined && deepEqual(againNames, names),
        'the same order twice',
        again.failure ?? `the order changed: ${brief(names)} then ${brief(againNames)}`,
        again.pages[0] ? [callEvidence(again.pages[0], 'tools/list again')] : [],
      );
      const other = await ctx.otherChannel();
      await compareViewpoints(
        ctx,
        TOOLS_SAME_EVERYWHERE,
        'tools/list',
        'tools',
        () => ctx.modern(other, 'tools/list', {}),
        {
          same: 'the same tools on another connection',
          other: 'on another connection',
        },
        ctx.target.kind === 'stdio',
      );
    } else {
      ctx.notApplicable(TOOLS_X_MCP_HEADER, `${revision} has no x-mcp-header`);
      ctx.notApplicable(TOOLS_DETERMINISTIC, `${revision} does not ask for a deterministic order`);
      ctx.notApplicable(TOOLS_SAME_EVERYWHERE, `${revision} is session-based`);
    }

    await callTools(ctx, tools);
    await unknownTool(ctx);
    await invalidArguments(ctx, tools);
  },
};

async function callTools(ctx: ProbeContext, tools: readonly JsonObject[]): Promise<void> {
  // A tool that requires task augmentation is called by the tasks probe, as a task.
  const requiresTask = (tool: JsonObject): boolean =>
    isObject(tool['execution']) && tool['execution']['taskSupport'] === 'required';
  const callable = tools.filter((tool) => ctx.mayCall(tool) && !requiresTask(tool));
  const skipped = tools.length - callable.length;
  if (callable.length === 0) {
    const reason =
      tools.length === 0
        ? 'the server lists no tools'
        : `no tool is annotated readOnlyHint: true (${skipped} not called; use --call <tool> or --call-all)`;
    for (const check of [
      TOOLS_CALL,
      TOOLS_STRUCTURED,
      TOOLS_STRUCTURED_TEXT,
      TOOLS_EMBEDDED_NEEDS_RESOURCES,
      CONTENT_BASE64,
    ])
      ctx.notRun(check, reason);
    return;
  }
  let structuredSeen = false;
  let structuredTextSeen = false;
  let embeddedSeen = false;
  let binarySeen = false;
  let index = 0;
  let cancelled: JsonObject | undefined;
  for (const tool of callable.slice(0, MAX_CALLS)) {
    const name = String(tool['name']);
    const schema = isObject(tool['inputSchema']) ? tool['inputSchema'] : {};
    const args = sampleInstance(schema);
    const check = validates(schema, args);
    if (!isObject(args) || (check !== undefined && !check.valid)) {
      ctx.notRun(TOOLS_CALL, `${name}: could not build arguments valid under its inputSchema`);
      continue;
    }
    const progressToken = `validator-progress-${++index}`;
    const annotations = tool['annotations'];
    if (!(isObject(annotations) && annotations['readOnlyHint'] === true)) ctx.state.mutated = true;
    // One tool that keeps working is cancelled in flight for the cancellation check (not on Streamable HTTP in
    // 2026-07-28, where cancelling means closing the stream).
    const cancellable = cancelled === undefined && !(ctx.era === 'modern' && ctx.target.kind !== 'stdio');
    const { call, cancelled: inPlace } = await callTool(
      ctx,
      { name, arguments: args, _meta: { progressToken } },
      cancellable,
    );
    ctx.state.toolCalls.push({
      tool,
      call,
      progressToken,
      ...(inPlace === undefined ? {} : { cancelled: inPlace }),
    });
    const evidence = [callEvidence(call, `tools/call ${name}`)];
    if (inPlace !== undefined) {
      // Its result never comes: the checks on results rest on the other tools (interpretations.md).
      cancelled = tool;
      ctx.notRun(
        TOOLS_CALL,
        `${name}: cancelled mid-flight to test cancellation (still working ${CANCEL_WINDOW_MS} ms after its first progress notification), so its result was not judged`,
        evidence,
      );
      continue;
    }
    const result = resultOf(call);
    if (errorCode(call) === -32021) {
      ctx.pass(
        TOOLS_CALL,
        `${name}: needs a client capability the validator did not declare (-32021)`,
        evidence,
      );
      continue;
    }
    if (
      result === undefined &&
      call.failure === 'timeout' &&
      call.during.some((r) => isObject(r.message) && r.message['method'] === 'notifications/progress')
    ) {
      // Still reporting progress when the validator stopped waiting: slow, not wrong.
      ctx.notRun(
        TOOLS_CALL,
        `${name} was still working (reporting progress) after ${call.elapsedMs} ms; a larger --timeout lets it finish`,
        evidence,
      );
      continue;
    }
    if (result === undefined) {
      // No answer at all breaks JSON-RPC; an error answer breaks the rule that tool errors go inside the result.
      ctx.fail(TOOLS_CALL, `${name} answered a valid call with ${isResult(call).detail}`, evidence, [
        call.response === undefined ? 'answered' : 'tool-errors',
      ]);
      continue;
    }
    if (result['resultType'] === 'input_required') {
      ctx.pass(TOOLS_CALL, `${name}: input required (multi round-trip)`, evidence);
      continue;
    }
    ctx.pass(
      TOOLS_CALL,
      `${name}: ${result['isError'] === true ? 'a tool error result' : 'a result'}`,
      evidence,
    );
    const content = Array.isArray(result['content']) ? result['content'] : [];
    const binary = binaryProblems(content, `${name} content`);
    if (
      content.some(
        (block) =>
          isObject(block) &&
          (block['type'] === 'image' || block['type'] === 'audio' || block['type'] === 'resource'),
      )
    )
      binarySeen = true;
    failProblems(ctx, CONTENT_BASE64, binary, evidence);
    if (
      factsOf(ctx.revision).structuredContent &&
      content.some((block) => isObject(block) && block['type'] === 'resource')
    ) {
      embeddedSeen = true;
      ctx.expect(
        TOOLS_EMBEDDED_NEEDS_RESOURCES,
        ctx.has('resources'),
        `${name} embeds resources and the server advertises resources`,
        `${name} returns embedded resources but the server does not advertise the resources capability`,
        evidence,
      );
    }
    if (
      tool['outputSchema'] !== undefined &&
      result['isError'] !== true &&
      factsOf(ctx.revision).structuredContent
    ) {
      structuredSeen = true;
      if (!('structuredContent' in result)) {
        ctx.fail(
          TOOLS_STRUCTURED,
          `${name} declares an outputSchema but returned no structuredContent`,
          evidence,
        );
      } else {
        const verdict = validates(tool['outputSchema'], result['structuredContent']);
        if (verdict === undefined)
          ctx.notRun(TOOLS_STRUCTURED, `${name}: its outputSchema could not be compiled`);
        else
          ctx.expect(
            TOOLS_STRUCTURED,
            verdict.valid,
            `${name}: structuredContent conforms`,
            `${name}: structuredContent does not conform: ${verdict.issues.join('; ')}`,
            evidence,
          );
      }
    }
    if ('structuredContent' in result && factsOf(ctx.revision).structuredContent) {
      structuredTextSeen = true;
      const texts = textBlocks(result['content']);
      const serialized = texts.some((text) => {
        try {
          return deepEqual(JSON.parse(text), result['structuredContent']);
        } catch {
          return false;
        }
      });
      ctx.expect(
        TOOLS_STRUCTURED_TEXT,
        serialized,
        `${name}: structured content also serialized as text`,
        `${name}: no TextContent block holds the serialized structuredContent`,
        evidence,
      );
    }
  }
  // A tool cancelled in flight returned nothing: say so where its result might have been the evidence.
  const unseen =
    cancelled === undefined
      ? ''
      : ` (${String(cancelled['name'])} was cancelled mid-flight to test cancellation: its result was not seen)`;
  if (!structuredSeen)
    ctx.notRun(
      TOOLS_STRUCTURED,
      cancelled?.['outputSchema'] !== undefined && factsOf(ctx.revision).structuredContent
        ? `${String(cancelled?.['name'])} declares an outputSchema but was cancelled mid-flight to test cancellation, and no other called tool returned a result under one`
        : 'no called tool declares an outputSchema',
    );
  if (!structuredTextSeen)
    ctx.notRun(TOOLS_STRUCTURED_TEXT, `no called tool returned structuredContent${unseen}`);
  if (!embeddedSeen)
    ctx.notRun(TOOLS_EMBEDDED_NEEDS_RESOURCES, `no called tool returned embedded resources${unseen}`);
  if (!binarySeen) ctx.notRun(CONTENT_BASE64, `no called tool returned binary content${unseen}`);
  else if (!ctx.recorded(CONTENT_BASE64))
    ctx.pass(CONTENT_BASE64, 'binary content is base64 with MIME types');
}

async function unknownTool(ctx: ProbeContext): Promise<void> {
  const name = 'validator_no_such_tool_7f3a';
  const call = await ctx.rpc('tools/call', { name, arguments: {} });
  const judgement = isError(call, -32602);
  const result = resultOf(call);
  ctx.expect(
    TOOLS_UNKNOWN,
    judgement.ok,
    judgement.detail,
    result?.['isError'] === true
      ? 'answered with an isError tool result; an unknown tool is a protocol error (-32602)'
      : judgement.detail,
    [callEvidence(call, `tools/call ${name}`)],
  );
}

async function invalidArguments(ctx: ProbeContext, tools: readonly JsonObject[]): Promise<void> {
  for (const tool of tools.filter((t) => ctx.mayCall(t))) {
    const schema = isObject(tool['inputSchema']) ? tool['inputSchema'] : undefined;
    if (schema === undefined) continue;
    const invalid = invalidInstance(schema);
    if (invalid === undefined || validates(schema, invalid.value)?.valid !== false) continue;
    const name = String(tool['name']);
    const call = await ctx.rpc('tools/call', { name, arguments: invalid.value });
    const evidence = [callEvidence(call, `tools/call ${name} with invalid arguments (${invalid.why})`)];
    const refused =
      call.response !== undefined && ('error' in call.response || resultOf(call)?.['isError'] === true);
    ctx.expect(
      TOOLS_ARGUMENTS_VALIDATED,
      refused,
      `${name}: the invalid arguments were refused`,
      call.response === undefined
        ? `${name}: ${isResult(call).detail}`
        : `${name}: the invalid arguments (${invalid.why}) were accepted and the tool ran`,
      evidence,
    );
    if (factsOf(ctx.revision).invalidArgumentsAsToolError) {
      const result = resultOf(call);
      ctx.expect(
        TOOLS_INVALID_ARGUMENTS,
        result?.['isError'] === true,
        `${name}: an isError result`,
        result === undefined
          ? `${name}: a protocol error (${errorCode(call) ?? 'no response'}); from 2025-11-25 input validation errors are tool execution errors (isError: true)`
          : `${name}: a result without isError: true although the arguments are invalid (${invalid.why})`,
        evidence,
      );
    } else {
      const judgement = isError(call, -32602);
      ctx.expect(
        TOOLS_INVALID_ARGUMENTS,
        judgement.ok,
        `${name}: ${judgement.detail}`,
        `${name}: ${judgement.detail} (invalid arguments are a protocol error in ${ctx.revision})`,
        evidence,
      );
    }
    return;
  }
  ctx.notRun(TOOLS_INVALID_ARGUMENTS, 'no callable tool has an input schema that arguments can violate');
  ctx.notRun(TOOLS_ARGUMENTS_VALIDATED, 'no callable tool has an input schema that arguments can violate');
}
