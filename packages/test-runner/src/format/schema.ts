/**
 * The JSON Schema of `mcpengine test` files (YAML). Every file is validated against it before it runs, and each
 * violation is reported at the `file:line:column` of the offending YAML node. Published as
 * `@mcpengine/test-runner/schema/test-file.schema.json` (a test keeps that copy equal to this one).
 */
const REVISION = { enum: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28', 'auto'] };
const REVISIONS = { oneOf: [REVISION, { type: 'array', items: REVISION, minItems: 1, uniqueItems: true }] };
const STRING_MAP = { type: 'object', additionalProperties: { type: 'string' } };
const MATCHER = {
  description:
    'A literal (objects match the members they list, arrays element by element) or an $operator object',
};

const CLIENT = {
  type: 'object',
  additionalProperties: false,
  description: 'Scripted answers to what the server asks the client',
  properties: {
    sampling: {
      type: 'array',
      description: 'Rules tried in order; the first whose `when` matches the request params answers',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['reply'],
        properties: {
          when: MATCHER,
          reply: {
            description: 'A text (the model says it) or a CreateMessageResult',
            oneOf: [{ type: 'string' }, { type: 'object' }],
          },
        },
      },
    },
    elicitation: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['action'],
        properties: {
          when: MATCHER,
          action: { enum: ['accept', 'decline', 'cancel'] },
          content: { type: 'object' },
        },
      },
    },
    roots: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['uri'],
        properties: { uri: { type: 'string', pattern: '^file://' }, name: { type: 'string' } },
      },
    },
  },
};

const ACTION_KEYS = ['tool', 'resource', 'prompt', 'complete', 'list', 'ping', 'subscribe'] as const;

const ACTION_PROPERTIES = {
  tool: { type: 'string', minLength: 1, description: 'Call this tool (tools/call)' },
  resource: { type: 'string', minLength: 1, description: 'Read this resource (resources/read)' },
  prompt: { type: 'string', minLength: 1, description: 'Get this prompt (prompts/get)' },
  complete: {
    type: 'object',
    additionalProperties: false,
    required: ['argument', 'value'],
    properties: {
      prompt: { type: 'string' },
      resourceTemplate: { type: 'string' },
      argument: { type: 'string' },
      value: { type: 'string' },
      context: STRING_MAP,
    },
    oneOf: [{ required: ['prompt'] }, { required: ['resourceTemplate'] }],
  },
  list: { enum: ['tools', 'resources', 'resourceTemplates', 'prompts'] },
  ping: { const: true },
  subscribe: { type: 'string', minLength: 1, description: 'Subscribe to this resource, then run `then`' },
};

const ACTION_STEP = {
  type: 'object',
  additionalProperties: false,
  properties: { ...ACTION_PROPERTIES, arguments: { type: 'object' } },
  oneOf: ACTION_KEYS.filter((key) => key !== 'subscribe').map((key) => ({ required: [key] })),
};

const EXPECT = {
  type: 'object',
  additionalProperties: false,
  properties: {
    error: { ...MATCHER, description: 'A JSON-RPC error is expected: a matcher on {code, message, data}' },
    isError: { oneOf: [{ type: 'boolean' }, { const: 'any' }] },
    rejectsInput: { type: 'boolean' },
    text: MATCHER,
    content: MATCHER,
    structuredContent: MATCHER,
    json: { type: 'object', additionalProperties: MATCHER },
    result: MATCHER,
    messages: MATCHER,
    contents: MATCHER,
    values: MATCHER,
    names: MATCHER,
    notifications: MATCHER,
    progress: MATCHER,
    logs: MATCHER,
    asked: MATCHER,
    updated: { type: 'boolean' },
    snapshot: { oneOf: [{ type: 'boolean' }, { type: 'string', minLength: 1 }] },
  },
};

const TEST = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1 },
    ...ACTION_PROPERTIES,
    arguments: { type: 'object' },
    then: ACTION_STEP,
    revision: REVISIONS,
    timeout: { type: 'integer', minimum: 1 },
    logLevel: {
      enum: ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'],
    },
    progress: { type: 'boolean' },
    client: CLIENT,
    skip: { oneOf: [{ type: 'boolean' }, { type: 'string' }] },
    expect: EXPECT,
  },
  oneOf: ACTION_KEYS.map((key) => ({ required: [key] })),
};

export const TEST_FILE_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://mcpengine.dev/schema/test-file.schema.json',
  title: 'mcpengine test file',
  type: 'object',
  additionalProperties: false,
  required: ['server', 'tests'],
  properties: {
    name: { type: 'string' },
    server: {
      type: 'object',
      additionalProperties: false,
      properties: {
        stdio: {
          type: 'string',
          minLength: 1,
          description: 'A command line, split like a shell (never run by one)',
        },
        command: { type: 'string', minLength: 1 },
        args: { type: 'array', items: { type: 'string' } },
        env: STRING_MAP,
        cwd: { type: 'string' },
        url: { type: 'string', pattern: '^https?://' },
        transport: { enum: ['auto', 'streamable-http', 'sse'] },
        headers: STRING_MAP,
        module: { type: 'string', description: 'In-memory: a module whose export makes the McpServer' },
        export: { type: 'string' },
        startupTimeout: { type: 'integer', minimum: 1 },
        cassette: {
          oneOf: [
            { type: 'string', minLength: 1 },
            {
              type: 'object',
              additionalProperties: false,
              required: ['file'],
              properties: {
                file: { type: 'string', minLength: 1 },
                mode: { enum: ['auto', 'record', 'replay'] },
                secrets: { type: 'array', items: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' } },
              },
            },
          ],
        },
      },
      anyOf: [
        { required: ['stdio'] },
        { required: ['command'] },
        { required: ['url'] },
        { required: ['module'] },
      ],
    },
    revision: REVISIONS,
    timeout: { type: 'integer', minimum: 1 },
    client: CLIENT,
    tests: { type: 'array', items: TEST },
  },
} as const;
