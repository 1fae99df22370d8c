/**
 * What our everything server (servers/everything) answers, written down independently of its source: the
 * fixture texts documented in the conformance notes (§2.4, §3) and the engine showcase, plus the canned answers
 * an official client gives to the server's sampling, elicitation and roots requests.
 *
 * Shared by the official SDK interop tests (v1 in the legacy era, v2 in the modern era).
 */
import { fileURLToPath } from 'node:url';

/** The built everything server, run on stdio. */
export const EVERYTHING_MAIN = fileURLToPath(
  new URL('../../servers/everything/dist/main.js', import.meta.url),
);

/** A 1×1 PNG and 10 ms of silent WAV (the fixtures' media). */
export const PNG_1X1_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';
export const WAV_SILENCE_BASE64 =
  'UklGRnQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YVAAAACAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgA==';

export const SERVER_NAME = 'mcpengine-everything';
export const SERVER_VERSION = '0.1.0';
export const SERVER_INSTRUCTIONS =
  'A test server: every tool, resource and prompt exists to exercise an MCP feature.';

// ── the client's side of the conversation ───────────────────────────────────────────────────────────

export const SAMPLED_TEXT = 'This is a test response from the client';
export const SAMPLING_REPLY = {
  role: 'assistant' as const,
  content: { type: 'text' as const, text: SAMPLED_TEXT },
  model: 'test-model',
  stopReason: 'endTurn',
};

export const CLIENT_ROOTS = [{ uri: 'file:///workspace/project', name: 'Project' }];

/** What a user may enter in an elicitation form (the spec's primitive values, and arrays for multi-select). */
export type FormContent = Record<string, string | number | boolean | string[]>;

/** The user's answer to each elicitation message the fixtures send (an unknown message is a test failure). */
export const ELICITATION_ANSWERS: Readonly<Record<string, FormContent>> = {
  'Please provide your information': { username: 'testuser', email: 'test@example.com' },
  'Please review and update the form fields with defaults': {
    name: 'Jane Smith',
    age: 25,
    score: 88,
    status: 'inactive',
    verified: false,
  },
  'Please select options from the enum fields': {
    untitledSingle: 'option1',
    titledSingle: 'value1',
    legacyEnum: 'opt1',
    untitledMulti: ['option1', 'option2'],
    titledMulti: ['value1', 'value2'],
  },
  'What is your name?': { name: 'Alice' },
  'Your name?': { name: 'Alice' },
  'What is your favourite colour?': { color: 'blue' },
  'Please confirm': { ok: true },
  'What context should the prompt use?': { context: 'test context' },
  'Delete notes.txt?': { confirm: true },
  'First answer?': { name: 'Alice' },
  'Second answer?': { name: 'Bob' },
};

export function elicitationAnswer(message: string): { action: 'accept'; content: FormContent } {
  const content = ELICITATION_ANSWERS[message];
  if (content === undefined) throw new Error(`No canned answer for elicitation ${JSON.stringify(message)}`);
  return { action: 'accept', content };
}

// ── what the server answers ─────────────────────────────────────────────────────────────────────────

export interface ExpectedCall {
  arguments?: Record<string, unknown>;
  /** The exact `content`, `isError` and `structuredContent` of the result (other members are not compared). */
  result: { content: unknown[]; isError?: boolean; structuredContent?: unknown };
}

const text = (value: string) => ({ content: [{ type: 'text', text: value }] });

/**
 * Every tool whose result does not depend on state left by other calls, with the arguments to call it and its
 * exact result, when the client answers with the canned replies above and declares sampling, elicitation and
 * roots.
 */
export const EXPECTED_CALLS: Readonly<Record<string, ExpectedCall>> = {
  test_simple_text: { result: text('This is a simple text response for testing.') },
  test_image_content: {
    result: { content: [{ type: 'image', data: PNG_1X1_BASE64, mimeType: 'image/png' }] },
  },
  test_audio_content: {
    result: { content: [{ type: 'audio', data: WAV_SILENCE_BASE64, mimeType: 'audio/wav' }] },
  },
  test_embedded_resource: {
    result: {
      content: [
        {
          type: 'resource',
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        },
      ],
    },
  },
  test_multiple_content_types: {
    result: {
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: PNG_1X1_BASE64, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: '{"test":"data","value":123}',
          },
        },
      ],
    },
  },
  test_tool_with_logging: { result: text('Tool with logging executed successfully') },
  test_error_handling: {
    result: { ...text('This tool intentionally returns an error for testing'), isError: true },
  },
  test_tool_with_progress: { result: text('Progress tool completed') },
  test_sampling: {
    arguments: { prompt: 'Test prompt for sampling' },
    result: text(`LLM response: ${SAMPLED_TEXT}`),
  },
  test_elicitation: {
    arguments: { message: 'Please provide your information' },
    result: text('User response: action=accept, content={"username":"testuser","email":"test@example.com"}'),
  },
  test_elicitation_sep1034_defaults: {
    result: text(
      'Elicitation completed: action=accept, content=' +
        '{"name":"Jane Smith","age":25,"score":88,"status":"inactive","verified":false}',
    ),
  },
  test_elicitation_sep1330_enums: {
    result: text(
      'Elicitation completed: action=accept, content={"untitledSingle":"option1","titledSingle":"value1",' +
        '"legacyEnum":"opt1","untitledMulti":["option1","option2"],"titledMulti":["value1","value2"]}',
    ),
  },
  json_schema_2020_12_tool: {
    arguments: { name: 'Ada', contactMethod: 'phone', phone: '+44 20 7946 0000' },
    result: text('Received: {"name":"Ada","contactMethod":"phone","phone":"+44 20 7946 0000"}'),
  },
  test_reconnection: { result: text('Reconnection test completed successfully') },
  test_header_echo: { arguments: { region: 'eu-west-1' }, result: text('Region: eu-west-1') },
  test_dynamic_tool: { result: text('dynamic tool called') },
  test_missing_capability: { result: text(`Sampled: ${SAMPLED_TEXT}`) },
  test_streaming_elicitation: { result: text('Hello, Alice!') },
  test_logging_tool: { result: text('Logged one message') },
  test_input_required_result_elicitation: { result: text('Hello, Alice!') },
  test_input_required_result_sampling: { result: text(`The model said: ${SAMPLED_TEXT}`) },
  test_input_required_result_list_roots: { result: text('Roots: file:///workspace/project') },
  test_input_required_result_request_state: { result: text('state-ok') },
  test_input_required_result_tampered_state: { result: text('state-ok') },
  test_input_required_result_multiple_inputs: { result: text(`${SAMPLED_TEXT} Alice (roots: 1)`) },
  test_input_required_result_multi_round: { result: text('Alice likes blue') },
  test_input_required_result_capabilities: {
    result: text('Asked for 3 input(s), matching the declared capabilities'),
  },
  add: {
    arguments: { a: 2, b: 40 },
    result: { content: [{ type: 'text', text: '{"sum":42}' }], structuredContent: { sum: 42 } },
  },
  echo: { arguments: { text: 'héllo, wörld ✓' }, result: text('héllo, wörld ✓') },
  get_resource_links: {
    result: {
      content: [
        { type: 'text', text: 'Two resources you can read:' },
        {
          type: 'resource_link',
          uri: 'test://static-text',
          name: 'Static text resource',
          mimeType: 'text/plain',
        },
        {
          type: 'resource_link',
          uri: 'test://template/42/data',
          name: 'Template data 42',
          mimeType: 'application/json',
        },
      ],
    },
  },
  long_running_operation: {
    arguments: { durationMs: 20, steps: 2 },
    result: text('Finished 2 steps in 20 ms'),
  },
  // The tasks fixtures, called without task augmentation: those that allow it run synchronously.
  greet: { arguments: { name: 'World' }, result: text('Hello, World!') },
  slow_compute: { arguments: { seconds: 0, label: 'quick' }, result: text('Computed quick in 0s') },
  confirm_delete: { arguments: { filename: 'notes.txt' }, result: text('Deleted notes.txt') },
  multi_input: { result: text('Answers: Alice, Bob') },
  // The MCP App (its app-only chart_append is not listed to these clients: they do not declare Apps).
  show_chart: {
    arguments: { title: 'Sales', values: [3, 1, 4] },
    result: {
      content: [
        { type: 'text', text: 'Chart "Sales": 3 values (3, 1, 4), total 8, min 1, max 4.' },
        { type: 'text', text: '{"title":"Sales","values":[3,1,4],"total":8,"min":1,"max":4}' },
      ],
      structuredContent: { title: 'Sales', values: [3, 1, 4], total: 8, min: 1, max: 4 },
    },
  },
};

/**
 * Tasks fixtures that require task augmentation: without it they are refused (-32601 at 2025-11-25, -32021 in
 * the modern era for a client without the tasks extension).
 */
export const TASK_REQUIRED_TOOLS = ['failing_job', 'protocol_error_job', 'test_tool_with_task'];

/** Tools that change server state; each has its own test. */
export const STATEFUL_TOOLS = [
  'test_trigger_tool_change',
  'test_trigger_prompt_change',
  'touch_watched_resource',
];

/** The parts of a tool result the table compares. */
export function comparable(result: Record<string, unknown>): ExpectedCall['result'] {
  const out: ExpectedCall['result'] = { content: result['content'] as unknown[] };
  if (result['isError'] !== undefined) out.isError = result['isError'] as boolean;
  if (result['structuredContent'] !== undefined) out.structuredContent = result['structuredContent'];
  return out;
}

export const EXPECTED_RESOURCES = [
  {
    uri: 'test://static-text',
    name: 'Static text resource',
    description: 'A static text resource for testing',
    mimeType: 'text/plain',
  },
  {
    uri: 'test://static-binary',
    name: 'Static binary resource',
    description: 'A static binary resource (a 1x1 PNG) for testing',
    mimeType: 'image/png',
  },
  {
    uri: 'test://watched-resource',
    name: 'Watched resource',
    description: 'A resource that can be subscribed to; touch_watched_resource changes it',
    mimeType: 'text/plain',
  },
  {
    uri: 'ui://everything/chart.html',
    name: 'Chart view',
    description: 'A bar chart of the values given to show_chart; adds values through chart_append',
    mimeType: 'text/html;profile=mcp-app',
    _meta: { ui: { prefersBorder: true } },
  },
];

export const EXPECTED_TEMPLATES = [
  {
    uriTemplate: 'test://template/{id}/data',
    name: 'Template data',
    description: 'JSON data for any id',
    mimeType: 'application/json',
  },
];

export const STATIC_TEXT = 'This is the content of the static text resource.';

export const EXPECTED_PROMPT_NAMES = [
  'test_dynamic_prompt',
  'test_input_required_result_prompt',
  'test_simple_prompt',
  'test_prompt_with_arguments',
  'test_prompt_with_embedded_resource',
  'test_prompt_with_image',
];

/** Prompt name → arguments and the exact `messages` it returns. */
export const EXPECTED_PROMPTS: Readonly<
  Record<string, { arguments?: Record<string, string>; messages: unknown[] }>
> = {
  test_simple_prompt: {
    messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
  },
  test_prompt_with_arguments: {
    arguments: { arg1: 'testValue1', arg2: 'testValue2' },
    messages: [
      {
        role: 'user',
        content: { type: 'text', text: "Prompt with arguments: arg1='testValue1', arg2='testValue2'" },
      },
    ],
  },
  test_prompt_with_embedded_resource: {
    arguments: { resourceUri: 'test://example-resource' },
    messages: [
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: {
            uri: 'test://example-resource',
            mimeType: 'text/plain',
            text: 'Embedded resource content for testing.',
          },
        },
      },
      { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
    ],
  },
  test_prompt_with_image: {
    messages: [
      { role: 'user', content: { type: 'image', data: PNG_1X1_BASE64, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
  },
  test_dynamic_prompt: {
    messages: [{ role: 'user', content: { type: 'text', text: 'dynamic prompt' } }],
  },
  test_input_required_result_prompt: {
    messages: [{ role: 'user', content: { type: 'text', text: 'Use this context: test context' } }],
  },
};
