#!/usr/bin/env node
/**
 * The everything client: MCPEngine's `Client` over our HTTP transports, acting out each client scenario of the
 * official conformance suite (`conformance client --command "node clients/conformance/dist/client.js"`).
 *
 * The suite appends the mock server's URL as the last argument and names the scenario in
 * `MCP_CONFORMANCE_SCENARIO`, the protocol version in `MCP_CONFORMANCE_PROTOCOL_VERSION` (which picks the
 * lifecycle: `initialize` and sessions up to 2025-11-25, stateless requests from 2026-07-28) and extra data in
 * `MCP_CONFORMANCE_CONTEXT`. Exit 0 on success; on failure or an unknown scenario, a message on stderr and 1.
 *
 * Every scenario also checks what it received, so that a run is not green just because the suite's own checks
 * are shallow.
 */
import { Client, type ClientOptions, type ClientSession } from 'mcpengine/client';
import { connectHttp } from 'mcpengine/http';
import {
  isRevision,
  type ElicitParams,
  type ElicitResult,
  type JsonObject,
  type Revision,
} from 'mcpengine/protocol';
import { AUTH_SCENARIOS } from './auth.js';
import type { ScenarioHandler, ScenarioRun } from './scenario.js';
import { listSkills, loadSkill, readVerified, SkillVerificationError, type SkillEntry } from './skills.js';

/** What a scenario gets to work with. */
class ScenarioFailure extends Error {
  override name = 'ScenarioFailure';
}

function expect(condition: unknown, message: string): asserts condition {
  if (!condition) throw new ScenarioFailure(message);
}

function textOf(result: { content?: unknown }): string {
  const content = Array.isArray(result.content) ? result.content : [];
  return content
    .map((block: unknown) =>
      typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'text'
        ? String((block as { text?: unknown }).text)
        : '',
    )
    .join('');
}

/** Accepts a form with every field filled: the value given by the schema's `default`, else a typed blank. */
export function acceptWithDefaults(params: ElicitParams): ElicitResult {
  const schema = 'requestedSchema' in params ? params.requestedSchema : undefined;
  const content: Record<string, string | number | boolean | string[]> = {};
  for (const [name, property] of Object.entries(schema?.properties ?? {})) {
    const spec = property as { type?: string; default?: unknown; enum?: unknown[] };
    const fallback =
      spec.default !== undefined
        ? spec.default
        : Array.isArray(spec.enum) && spec.enum.length > 0
          ? spec.enum[0]
          : spec.type === 'boolean'
            ? false
            : spec.type === 'number' || spec.type === 'integer'
              ? 0
              : '';
    content[name] = fallback as string | number | boolean | string[];
  }
  return { action: 'accept', content };
}

// ── scenarios ───────────────────────────────────────────────────────────────────────────────────────────

async function initialize(run: ScenarioRun): Promise<void> {
  const { client } = await run.connect();
  expect(client.era === 'legacy', `initialize: expected the legacy lifecycle at ${run.version}`);
  expect(
    client.serverInfo?.name === 'test-server',
    `unexpected serverInfo ${JSON.stringify(client.serverInfo)}`,
  );
  const tools = await client.listTools();
  expect(Array.isArray(tools.tools), 'tools/list returned no tools array');
  await client.close();
}

async function toolsCall(run: ScenarioRun): Promise<void> {
  const { client } = await run.connect();
  const tools = await client.listAllTools();
  expect(
    tools.some((tool) => tool.name === 'add_numbers'),
    'the server lists no add_numbers tool',
  );
  const result = await client.callTool({ name: 'add_numbers', arguments: { a: 7, b: 35 } });
  expect(result.isError !== true, `add_numbers failed: ${textOf(result)}`);
  expect(textOf(result) === 'The sum of 7 and 35 is 42', `unexpected add_numbers result ${textOf(result)}`);
  await client.close();
}

async function elicitationDefaults(run: ScenarioRun): Promise<void> {
  const { client } = await run.connect({ handlers: { elicitation: acceptWithDefaults } });
  const result = await client.callTool({ name: 'test_client_elicitation_defaults', arguments: {} });
  expect(result.isError !== true, `the tool failed: ${textOf(result)}`);
  expect(textOf(result).startsWith('Elicitation completed:'), `unexpected result ${textOf(result)}`);
  await client.close();
}

async function sseRetry(run: ScenarioRun): Promise<void> {
  // The mock treats every GET as the reconnection it waits for, so a standalone GET opened first would be
  // mistaken for it: this scenario runs without one (the spec makes the standalone stream optional).
  const { client } = await run.connect({ standaloneStream: false });
  const tools = await client.listAllTools();
  expect(
    tools.some((tool) => tool.name === 'test_reconnection'),
    'the server lists no test_reconnection tool',
  );
  const result = await client.callTool({ name: 'test_reconnection', arguments: {} });
  expect(
    textOf(result) === 'Reconnection test completed successfully',
    `unexpected result ${textOf(result)}`,
  );
  await client.close();
}

async function requestMetadata(run: ScenarioRun): Promise<void> {
  // All three capabilities declared, so that their shape is checked rather than skipped.
  const { client } = await run.connect({
    handlers: {
      elicitation: () => ({ action: 'decline' }),
      sampling: () => ({ role: 'assistant', content: { type: 'text', text: 'unused' }, model: 'none' }),
      roots: () => [],
    },
  });
  expect(client.era === 'modern', 'request-metadata: expected the modern lifecycle');
  await client.listTools();
  await client.callTool({ name: 'anything', arguments: {} });
  await client.close();
}

async function requestState(run: ScenarioRun): Promise<void> {
  const { client } = await run.connect({
    handlers: { elicitation: () => ({ action: 'accept', content: { confirmed: true } }) },
  });
  const tools = (await client.listAllTools()).map((tool) => tool.name);
  for (const name of [
    'test_mrtr_echo_state',
    'test_mrtr_no_state',
    'test_mrtr_unrelated',
    'test_mrtr_no_result_type',
  ]) {
    expect(tools.includes(name), `the server lists no ${name} tool`);
  }
  // An unrelated call in flight alongside a multi-round call must not pick up its inputResponses or state.
  const [echo, unrelated] = await Promise.all([
    client.callTool({ name: 'test_mrtr_echo_state', arguments: {} }),
    client.callTool({ name: 'test_mrtr_unrelated', arguments: {} }),
  ]);
  expect(textOf(echo) === 'echo-state-ok', `test_mrtr_echo_state: ${textOf(echo)}`);
  expect(textOf(unrelated) === 'unrelated-ok', `test_mrtr_unrelated: ${textOf(unrelated)}`);
  const noState = await client.callTool({ name: 'test_mrtr_no_state', arguments: {} });
  expect(textOf(noState) === 'no-state-ok', `test_mrtr_no_state: ${textOf(noState)}`);
  const noResultType = await client.callTool({ name: 'test_mrtr_no_result_type', arguments: {} });
  expect(
    textOf(noResultType) === 'no-result-type-test-ok',
    `test_mrtr_no_result_type: ${textOf(noResultType)}`,
  );
  await client.close();
}

async function standardHeaders(run: ScenarioRun): Promise<void> {
  const { client } = await run.connect();
  const tools = await client.listAllTools();
  for (const tool of tools) await client.callTool({ name: tool.name, arguments: {} });
  const resources = await client.listResources();
  for (const resource of resources.resources) await client.readResource({ uri: resource.uri });
  const prompts = await client.listPrompts();
  for (const prompt of prompts.prompts) await client.getPrompt({ name: prompt.name });
  expect(
    tools.length === 2 && resources.resources.length === 2 && prompts.prompts.length === 1,
    'unexpected lists',
  );
  await client.close();
}

async function customHeaders(run: ScenarioRun): Promise<void> {
  const calls = Array.isArray(run.context.toolCalls) ? run.context.toolCalls : [];
  expect(calls.length > 0, 'MCP_CONFORMANCE_CONTEXT has no toolCalls');
  const { client } = await run.connect();
  // tools/list first: that is where the transport learns which arguments to mirror.
  const tools = (await client.listAllTools()).map((tool) => tool.name);
  for (const call of calls as { name: string; arguments?: JsonObject }[]) {
    expect(tools.includes(call.name), `the server lists no ${call.name} tool`);
    const result = await client.callTool({ name: call.name, arguments: call.arguments ?? {} });
    expect(result.isError !== true, `${call.name} failed: ${textOf(result)}`);
  }
  await client.close();
}

async function invalidToolHeaders(run: ScenarioRun): Promise<void> {
  const { client } = await run.connect();
  const tools = (await client.listAllTools()).map((tool) => tool.name);
  // The transport drops every tool whose x-mcp-header annotation breaks the rules; only valid_tool remains.
  expect(
    tools.length === 1 && tools[0] === 'valid_tool',
    `expected only valid_tool after screening, got ${tools.join(', ')}`,
  );
  const result = await client.callTool({ name: 'valid_tool', arguments: { region: 'us-west1' } });
  expect(result.isError !== true, `valid_tool failed: ${textOf(result)}`);
  await client.close();
}

async function refNoDeref(run: ScenarioRun): Promise<void> {
  const { client } = await run.connect();
  const tools = await client.listAllTools();
  const tool = tools.find((candidate) => candidate.name === 'lookup_user');
  expect(tool, 'the server lists no lookup_user tool');
  // The schema is kept as data: the network $ref is never fetched.
  const profile = (tool.inputSchema.properties as JsonObject | undefined)?.profile as JsonObject | undefined;
  expect(typeof profile?.$ref === 'string', 'the $ref of lookup_user was not preserved');
  await client.close();
}

async function schemaPreservation(run: ScenarioRun): Promise<void> {
  const { client } = await run.connect();
  const tools = await client.listAllTools();
  const focal = tools.find((tool) => tool.name === 'json_schema_2020_12_tool');
  expect(focal, 'the server lists no json_schema_2020_12_tool');
  expect(
    tools.some((tool) => tool.name === 'json_schema_echo'),
    'the server lists no json_schema_echo tool',
  );
  const result = await client.callTool({
    name: 'json_schema_echo',
    arguments: { schema: focal.inputSchema as unknown as JsonObject },
  });
  expect(result.isError !== true && textOf(result) === 'echoed', `json_schema_echo: ${textOf(result)}`);
  await client.close();
}

async function skillsNoPrefetch(run: ScenarioRun): Promise<void> {
  const { client } = await run.connect();
  expect(
    client.serverCapabilities.extensions !== undefined,
    'the server does not declare the skills extension',
  );
  const skills = await listSkills(client);
  expect(skills.length === 1, `expected one skill, got ${skills.length}`);
  // Listing is not loading: no file of the skill is read until the skill is needed, which it never is here.
  await client.close();
}

/** Loads the one listed skill, which the server has tampered with: the verification must refuse it. */
function skillsVerify(expected: SkillVerificationError['check']): ScenarioHandler {
  return async (run) => {
    const { client } = await run.connect();
    const [skill] = await listSkills(client);
    expect(skill, 'the server lists no skill');
    let refused: SkillVerificationError | undefined;
    try {
      await loadSkill(client, skill);
    } catch (error) {
      if (!(error instanceof SkillVerificationError)) throw error;
      refused = error;
    }
    if (!refused) {
      // Verified: the skill would now use its supporting files, read (and verified) on demand.
      await useSupportingFiles(client, skill);
    }
    await client.close();
    expect(refused, `the tampered skill ${skill.uri} passed verification`);
    expect(
      refused.check === expected,
      `the skill was refused for its ${refused.check}, expected ${expected}`,
    );
    console.error(`conformance-client: refused skill ${skill.uri}: ${refused.message}`);
  };
}

async function useSupportingFiles(client: ClientSession, skill: SkillEntry): Promise<void> {
  for (const file of skill.resources) if (file.uri !== skill.uri) await readVerified(client, skill, file.uri);
}

const SCENARIOS: Readonly<Record<string, ScenarioHandler>> = {
  initialize,
  tools_call: toolsCall,
  'elicitation-sep1034-client-defaults': elicitationDefaults,
  'sse-retry': sseRetry,
  'request-metadata': requestMetadata,
  'sep-2322-client-request-state': requestState,
  'http-standard-headers': standardHeaders,
  'http-custom-headers': customHeaders,
  'http-invalid-tool-headers': invalidToolHeaders,
  'json-schema-ref-no-deref': refNoDeref,
  'json-schema-2020-12-preservation': schemaPreservation,
  'sep-2640-client-no-prefetch': skillsNoPrefetch,
  'sep-2640-client-verify-digest': skillsVerify('digest'),
  'sep-2640-client-verify-size': skillsVerify('size'),
  'sep-2640-client-verify-frontmatter': skillsVerify('frontmatter'),
};

/** The scenarios this client knows, auth ones included. */
export function scenarioNames(): string[] {
  return [...Object.keys(SCENARIOS), ...Object.keys(AUTH_SCENARIOS)];
}

function handlerFor(scenario: string): ScenarioHandler | undefined {
  if (scenario.startsWith('auth/')) return AUTH_SCENARIOS[scenario];
  return SCENARIOS[scenario];
}

function createRun(scenario: string, url: string, version: Revision, context: JsonObject): ScenarioRun {
  return {
    scenario,
    url,
    version,
    context,
    async connect(options = {}) {
      const clientOptions: ClientOptions = { name: 'mcpengine-everything-client', version: '0.1.0' };
      if (options.handlers) clientOptions.handlers = options.handlers;
      const client = new Client(clientOptions);
      // Only the run's version: the legacy lifecycle initializes with it; the modern one probes with it and
      // follows an UnsupportedProtocolVersion answer to a version both sides list.
      const { session, transport } = await connectHttp(client, url, {
        standaloneStream: options.standaloneStream ?? true,
        connect: { revisions: [version] },
        logger: {
          warn: (message) => console.error(`conformance-client: ${message}`),
        },
      });
      return { client: session, transport };
    },
  };
}

async function main(): Promise<number> {
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  const version = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? '2025-11-25';
  const url = process.argv.at(-1) ?? '';
  const handler = handlerFor(scenario);
  if (!handler) {
    console.error(
      `conformance-client: unknown scenario ${JSON.stringify(scenario)} (MCP_CONFORMANCE_SCENARIO). Known: ${scenarioNames().join(', ')}`,
    );
    return 1;
  }
  if (!isRevision(version)) {
    console.error(`conformance-client: unknown protocol version ${JSON.stringify(version)}`);
    return 1;
  }
  if (!/^https?:\/\//.test(url)) {
    console.error(`conformance-client: the last argument must be the server URL, got ${JSON.stringify(url)}`);
    return 1;
  }
  let context: JsonObject = {};
  if (process.env.MCP_CONFORMANCE_CONTEXT) {
    try {
      context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) as JsonObject;
    } catch {
      console.error('conformance-client: MCP_CONFORMANCE_CONTEXT is not JSON');
      return 1;
    }
  }
  try {
    await handler(createRun(scenario, url, version, context));
    return 0;
  } catch (error) {
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    console.error(`conformance-client: scenario ${scenario} failed at ${version}: ${detail}`);
    return 1;
  }
}

// Exit explicitly: idle keep-alive sockets must not hold the process after the scenario is done.
process.exit(await main());
