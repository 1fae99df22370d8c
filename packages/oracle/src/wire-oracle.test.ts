import { describe, expect, test } from 'vitest';
import { REVISIONS, type Revision, type Side } from './revisions.js';
import { defaultOracle, WireOracle } from './wire-oracle.js';

const oracle = defaultOracle();
const LEGACY = REVISIONS.filter((revision) => revision !== '2026-07-28');

/** The `_meta` every 2026-07-28 request carries. */
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

const request = (method: string, params?: object, id: unknown = 1) => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params && { params }),
});
const modernRequest = (method: string, params: object = {}, id: unknown = 1) =>
  request(method, { ...params, _meta: META }, id);
const notification = (method: string, params?: object) => ({
  jsonrpc: '2.0',
  method,
  ...(params && { params }),
});
const response = (result: unknown, id: unknown = 1) => ({ jsonrpc: '2.0', id, result });
const failure = (code: unknown, id: unknown = 1, data?: unknown) => ({
  jsonrpc: '2.0',
  id,
  error: { code, message: 'failed', ...(data !== undefined && { data }) },
});

function check(message: unknown, revision: Revision, sender: Side, inReplyTo?: string) {
  return oracle.check(message, { revision, sender, ...(inReplyTo !== undefined && { inReplyTo }) });
}

/** The definition a message fails, or `null` when it is valid. */
function failed(message: unknown, revision: Revision, sender: Side, inReplyTo?: string): string | null {
  return check(message, revision, sender, inReplyTo)?.definition ?? null;
}

const text = { type: 'text', text: 'hello' };
const audio = { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' };
const cacheHints = { ttlMs: 60_000, cacheScope: 'private' };
const task = {
  taskId: 't-1',
  status: 'working',
  createdAt: '2026-07-28T10:00:00Z',
  lastUpdatedAt: '2026-07-28T10:00:00Z',
  ttlMs: 60_000,
};

describe('requests', () => {
  test.each(LEGACY)('a plain tools/list request is valid at %s', (revision) => {
    expect(check(request('tools/list'), revision, 'client')).toBeNull();
  });

  test('at 2026-07-28 a request must carry the protocol version and client capabilities in _meta', () => {
    expect(check(modernRequest('tools/list'), '2026-07-28', 'client')).toBeNull();
    const violation = check(request('tools/list', {}), '2026-07-28', 'client');
    expect(violation?.definition).toBe('ListToolsRequest');
    expect(violation?.errors).toContain("/params must have required property '_meta'");
  });

  test.each(REVISIONS)('the envelope is checked even where request definitions omit it (%s)', (revision) => {
    const make = (overrides: object) => ({ ...modernRequest('tools/list'), ...overrides });
    expect(failed(make({ id: null }), revision, 'client')).toBe('JSONRPCRequest');
    expect(failed(make({ id: 1.5 }), revision, 'client')).toBe('JSONRPCRequest');
    expect(failed(make({ id: true }), revision, 'client')).toBe('JSONRPCRequest');
    expect(failed(make({ jsonrpc: '1.0' }), revision, 'client')).toBe('JSONRPCRequest');
    expect(failed(make({ params: [1, 2] }), revision, 'client')).toBe('JSONRPCRequest');
    expect(failed(make({ id: 'abc' }), revision, 'client')).toBeNull();
  });

  test('the method definition validates the params', () => {
    const violation = check(request('tools/call', { arguments: {} }), '2025-06-18', 'client');
    expect(violation?.definition).toBe('CallToolRequest');
    expect(violation?.errors).toContain("/params must have required property 'name'");
  });

  test('an unknown method is a violation, named after the union it is missing from', () => {
    const violation = check(request('tools/frobnicate'), '2025-06-18', 'client');
    expect(violation?.definition).toBe('ClientRequest');
    expect(violation?.errors).toEqual(['/method "tools/frobnicate" is not a client request in 2025-06-18']);
  });

  test('a method the sender may not send is a violation', () => {
    const sampling = { messages: [], maxTokens: 10 };
    expect(failed(request('sampling/createMessage', sampling), '2025-06-18', 'server')).toBeNull();
    const violation = check(request('sampling/createMessage', sampling), '2025-06-18', 'client');
    expect(violation?.errors[0]).toMatch(/only the server sends it/);
  });

  test('elicitation/create is a server request from 2025-06-18 on, not in 2025-03-26', () => {
    const elicit = { message: 'Your name?', requestedSchema: { type: 'object', properties: {} } };
    expect(failed(request('elicitation/create', elicit), '2025-03-26', 'server')).toBe('ServerRequest');
    expect(failed(request('elicitation/create', elicit), '2025-06-18', 'server')).toBeNull();
  });

  test('2026-07-28 dropped initialize, ping and logging/setLevel, and has no server requests', () => {
    expect(failed(modernRequest('initialize'), '2026-07-28', 'client')).toBe('ClientRequest');
    expect(failed(modernRequest('ping'), '2026-07-28', 'client')).toBe('ClientRequest');
    expect(failed(modernRequest('logging/setLevel', { level: 'info' }), '2026-07-28', 'client')).toBe(
      'ClientRequest',
    );
    expect(failed(request('roots/list'), '2026-07-28', 'server')).toBe('ServerRequest');
    expect(failed(request('ping'), '2025-11-25', 'server')).toBeNull();
  });

  test('server/discover and subscriptions/listen exist only at 2026-07-28', () => {
    expect(failed(modernRequest('server/discover'), '2026-07-28', 'client')).toBeNull();
    expect(
      failed(modernRequest('subscriptions/listen', { notifications: {} }), '2026-07-28', 'client'),
    ).toBeNull();
    expect(failed(request('server/discover'), '2025-11-25', 'client')).toBe('ClientRequest');
  });

  test('tasks: core methods at 2025-11-25, the extension at 2026-07-28', () => {
    expect(failed(request('tasks/get', { taskId: 't-1' }), '2025-11-25', 'client')).toBeNull();
    expect(failed(request('tasks/list'), '2025-11-25', 'server')).toBeNull();
    expect(
      failed(request('tasks/update', { taskId: 't-1', inputResponses: {} }), '2025-11-25', 'client'),
    ).toBe('ClientRequest');

    expect(failed(modernRequest('tasks/get', { taskId: 't-1' }), '2026-07-28', 'client')).toBeNull();
    expect(
      failed(modernRequest('tasks/update', { taskId: 't-1', inputResponses: {} }), '2026-07-28', 'client'),
    ).toBeNull();
    expect(failed(modernRequest('tasks/cancel', { taskId: 't-1' }), '2026-07-28', 'client')).toBeNull();
    expect(failed(modernRequest('tasks/get', {}), '2026-07-28', 'client')).toBe('tasks:GetTaskRequest');
    expect(failed(modernRequest('tasks/list'), '2026-07-28', 'client')).toBe('ClientRequest');
    expect(failed(modernRequest('tasks/get', { taskId: 't-1' }), '2026-07-28', 'server')).toBe(
      'ServerRequest',
    );
  });

  test('extension requests still need the core _meta at 2026-07-28', () => {
    const violation = check(request('tasks/get', { taskId: 't-1' }), '2026-07-28', 'client');
    expect(violation?.definition).toBe('RequestParams');
    expect(violation?.errors).toContain("/params must have required property '_meta'");
  });
});

describe('notifications', () => {
  test('notifications/initialized is sent by the client only', () => {
    expect(failed(notification('notifications/initialized'), '2025-06-18', 'client')).toBeNull();
    expect(failed(notification('notifications/initialized'), '2025-06-18', 'server')).toBe(
      'ServerNotification',
    );
  });

  test('params are validated', () => {
    expect(
      failed(
        notification('notifications/progress', { progressToken: 1, progress: 5 }),
        '2025-03-26',
        'server',
      ),
    ).toBeNull();
    expect(failed(notification('notifications/progress', { progressToken: 1 }), '2025-03-26', 'server')).toBe(
      'ProgressNotification',
    );
  });

  test('a notification with an id is a request, and null is no id', () => {
    expect(failed({ ...notification('notifications/initialized'), id: null }, '2025-06-18', 'client')).toBe(
      'JSONRPCRequest',
    );
  });

  test('notifications/elicitation/complete was 2025-11-25 only', () => {
    const complete = notification('notifications/elicitation/complete', { elicitationId: 'e-1' });
    expect(failed(complete, '2025-11-25', 'server')).toBeNull();
    expect(failed(complete, '2026-07-28', 'server')).toBe('ServerNotification');
  });

  test('2026-07-28: cancellation from either side; task status from the extension', () => {
    const cancelled = notification('notifications/cancelled', { requestId: 7 });
    expect(failed(cancelled, '2026-07-28', 'client')).toBeNull();
    expect(failed(cancelled, '2026-07-28', 'server')).toBeNull();
    expect(failed(notification('notifications/tasks', task), '2026-07-28', 'server')).toBeNull();
    expect(failed(notification('notifications/tasks', { taskId: 't-1' }), '2026-07-28', 'server')).toBe(
      'tasks:TaskStatusNotification',
    );
    expect(failed(notification('notifications/tasks', task), '2026-07-28', 'client')).toBe(
      'ClientNotification',
    );
  });
});

describe('legacy results', () => {
  test('audio content exists from 2025-03-26 on', () => {
    const result = response({ content: [text, audio] });
    expect(failed(result, '2025-06-18', 'server', 'tools/call')).toBeNull();
    expect(failed(result, '2025-03-26', 'server', 'tools/call')).toBeNull();
    const violation = check(result, '2024-11-05', 'server', 'tools/call');
    expect(violation?.definition).toBe('CallToolResult');
    expect(violation?.errors).toContain('/result/content/1/type must be equal to constant "text"');
  });

  test('initialize is answered by an InitializeResult', () => {
    const result = {
      protocolVersion: '2024-11-05',
      capabilities: {},
      serverInfo: { name: 's', version: '1' },
    };
    expect(failed(response(result), '2024-11-05', 'server', 'initialize')).toBeNull();
    const { serverInfo: _dropped, ...withoutInfo } = result;
    expect(failed(response(withoutInfo), '2024-11-05', 'server', 'initialize')).toBe('InitializeResult');
  });

  test.each([
    ['ping', 'server', {}],
    ['logging/setLevel', 'server', {}],
    ['resources/subscribe', 'server', {}],
    ['tools/list', 'server', { tools: [] }],
    ['resources/read', 'server', { contents: [{ uri: 'test://a', text: 'x' }] }],
    ['prompts/get', 'server', { messages: [] }],
    ['completion/complete', 'server', { completion: { values: [] } }],
    ['sampling/createMessage', 'client', { role: 'assistant', content: text, model: 'm' }],
    ['elicitation/create', 'client', { action: 'decline' }],
    ['roots/list', 'client', { roots: [] }],
  ] as const)('%s is answered by its result definition (2025-06-18)', (method, sender, result) => {
    expect(failed(response(result), '2025-06-18', sender, method)).toBeNull();
  });

  test('the result definition comes from the request answered', () => {
    expect(failed(response({ tools: [] }), '2025-06-18', 'server', 'prompts/list')).toBe('ListPromptsResult');
    expect(failed(response({ roots: [{ uri: 42 }] }), '2025-06-18', 'client', 'roots/list')).toBe(
      'ListRootsResult',
    );
  });

  test('an unknown request falls back to the ServerResult / ClientResult union', () => {
    expect(failed(response({ anything: true }), '2025-06-18', 'server')).toBeNull();
    expect(failed(response({ anything: true }), '2025-06-18', 'client', 'no/such/method')).toBeNull();
    expect(failed(response('not an object'), '2025-06-18', 'server')).toBe('JSONRPCResponse');
    expect(failed(response({}, null), '2025-06-18', 'server')).toBe('JSONRPCResponse');
  });

  test('2025-11-25: a task-augmented request is answered by a CreateTaskResult', () => {
    const created = {
      task: { taskId: 't', status: 'working', createdAt: 'a', lastUpdatedAt: 'b', ttl: null },
    };
    expect(failed(response(created), '2025-11-25', 'server', 'tools/call')).toBeNull();
    const answered = oracle.check(response({ content: [text] }), {
      revision: '2025-11-25',
      sender: 'server',
      inReplyTo: 'tools/call',
      taskAugmented: true,
    });
    expect(answered?.definition).toBe('CreateTaskResult');
    expect(failed(response({ task: { taskId: 't' } }), '2025-11-25', 'client', 'elicitation/create')).toBe(
      'CreateTaskResult',
    );
    expect(failed(response({ content: [text] }), '2025-11-25', 'server', 'tools/call')).toBeNull();
  });

  test('2025-11-25 task results', () => {
    const state = { taskId: 't', status: 'completed', createdAt: 'a', lastUpdatedAt: 'b', ttl: 1000 };
    expect(failed(response(state), '2025-11-25', 'server', 'tasks/get')).toBeNull();
    expect(failed(response({ tasks: [state] }), '2025-11-25', 'server', 'tasks/list')).toBeNull();
    expect(failed(response({ taskId: 't' }), '2025-11-25', 'server', 'tasks/cancel')).toBe(
      'CancelTaskResult',
    );
  });
});

describe('2026-07-28 results', () => {
  const R = '2026-07-28';

  test('every result carries resultType', () => {
    // The envelope's `result` is a `Result`, which requires it.
    const violation = check(response({ content: [text] }), R, 'server', 'tools/call');
    expect(violation?.definition).toBe('JSONRPCResultResponse');
    expect(violation?.errors).toEqual(["/result must have required property 'resultType'"]);
    expect(
      failed(response({ content: [text], resultType: 'complete' }), R, 'server', 'tools/call'),
    ).toBeNull();
    expect(failed(response({ resultType: 'complete' }), R, 'server')).toBeNull();
    expect(failed(response({}), R, 'server')).toBe('JSONRPCResultResponse');
    expect(failed(response({ resultType: 7 }), R, 'server')).toBe('JSONRPCResultResponse');
  });

  test('cacheable results carry ttlMs and cacheScope', () => {
    const violation = check(response({ resultType: 'complete', tools: [] }), R, 'server', 'tools/list');
    expect(violation?.definition).toBe('ListToolsResult');
    expect(violation?.errors).toContain("/result must have required property 'ttlMs'");
    expect(
      failed(response({ resultType: 'complete', tools: [], ...cacheHints }), R, 'server', 'tools/list'),
    ).toBeNull();
    expect(
      failed(
        response({ resultType: 'complete', tools: [], ...cacheHints, ttlMs: -1 }),
        R,
        'server',
        'tools/list',
      ),
    ).toBe('ListToolsResult');
    expect(
      failed(
        response({ resultType: 'complete', tools: [], ...cacheHints, cacheScope: 'shared' }),
        R,
        'server',
        'tools/list',
      ),
    ).toBe('ListToolsResult');
  });

  test.each([
    ['prompts/list', { prompts: [] }],
    ['resources/list', { resources: [] }],
    ['resources/templates/list', { resourceTemplates: [] }],
    ['resources/read', { contents: [] }],
    ['server/discover', { supportedVersions: ['2026-07-28'], capabilities: {} }],
  ])('%s without cache hints is a violation', (method, result) => {
    expect(failed(response({ resultType: 'complete', ...result }), R, 'server', method)).not.toBeNull();
    expect(
      failed(response({ resultType: 'complete', ...result, ...cacheHints }), R, 'server', method),
    ).toBeNull();
  });

  test('input_required validates as InputRequiredResult, only where multi round-trip requests are allowed', () => {
    const inputRequired = { resultType: 'input_required', requestState: 'opaque' };
    expect(failed(response(inputRequired), R, 'server', 'tools/call')).toBeNull();
    expect(failed(response(inputRequired), R, 'server', 'prompts/get')).toBeNull();
    expect(failed(response(inputRequired), R, 'server', 'resources/read')).toBeNull();
    expect(failed(response(inputRequired), R, 'server')).toBeNull();
    expect(check(response(inputRequired), R, 'server', 'tools/list')?.errors).toEqual([
      '/result/resultType "input_required" must not answer tools/list',
    ]);
    expect(check(response({ resultType: 'input_required' }), R, 'server', 'tools/call')?.errors).toEqual([
      '/result must carry inputRequests or requestState (at least one)',
    ]);
    const badRequest = { resultType: 'input_required', inputRequests: { a: { method: 'tools/list' } } };
    expect(failed(response(badRequest), R, 'server', 'tools/call')).toBe('InputRequiredResult');
  });

  test('resultType "task" validates against the extension, and only for tools/call', () => {
    expect(failed(response({ resultType: 'task', ...task }), R, 'server', 'tools/call')).toBeNull();
    const { ttlMs: _ttl, ...withoutTtl } = task;
    const violation = check(response({ resultType: 'task', ...withoutTtl }), R, 'server', 'tools/call');
    expect(violation?.definition).toBe('tasks:CreateTaskResult');
    expect(violation?.errors).toContain("/result must have required property 'ttlMs'");
    expect(failed(response({ resultType: 'task', ...task }), R, 'server', 'prompts/get')).toBe(
      'tasks:CreateTaskResult',
    );
  });

  test('an unknown resultType is a violation', () => {
    const violation = check(response({ resultType: 'partial', content: [] }), R, 'server', 'tools/call');
    expect(violation?.definition).toBe('Result');
    expect(violation?.errors[0]).toMatch(/"partial" is none of complete, input_required, task/);
  });

  test('extension results', () => {
    expect(failed(response({ resultType: 'complete', ...task }), R, 'server', 'tasks/get')).toBeNull();
    expect(
      failed(response({ resultType: 'complete', ...task, status: 'completed' }), R, 'server', 'tasks/get'),
    ).toBe('tasks:GetTaskResult');
    expect(failed(response({ resultType: 'complete' }), R, 'server', 'tasks/update')).toBeNull();
    expect(failed(response({ resultType: 'complete' }), R, 'server', 'tasks/cancel')).toBeNull();
  });

  test('subscriptions/listen results carry the subscription id', () => {
    const meta = { 'io.modelcontextprotocol/subscriptionId': 4 };
    expect(
      failed(response({ resultType: 'complete', _meta: meta }), R, 'server', 'subscriptions/listen'),
    ).toBeNull();
    expect(failed(response({ resultType: 'complete' }), R, 'server', 'subscriptions/listen')).toBe(
      'SubscriptionsListenResult',
    );
  });
});

describe('errors', () => {
  test.each(REVISIONS)('id null only on parse errors and invalid requests (%s)', (revision) => {
    expect(failed(failure(-32700, null), revision, 'server')).toBeNull();
    expect(failed(failure(-32600, null), revision, 'server')).toBeNull();
    const violation = check(failure(-32601, null), revision, 'server');
    expect(violation?.definition).toMatch(/^JSONRPCError(Response)?$/);
    expect(violation?.errors[0]).toBe('/id is null, which only -32700 and -32600 may carry');
  });

  test.each(REVISIONS)('the envelope: integer code, string message, an id (%s)', (revision) => {
    expect(failed(failure(-32601), revision, 'server')).toBeNull();
    expect(failed(failure(-32601, 'req-1'), revision, 'server')).toBeNull();
    expect(failed(failure('-32601'), revision, 'server')).not.toBeNull();
    expect(failed(failure(-32601.5), revision, 'server')).not.toBeNull();
    expect(failed({ jsonrpc: '2.0', id: 1, error: { code: -32601 } }, revision, 'server')).not.toBeNull();
    // The schemas from 2025-11-25 on allow a missing id; JSON-RPC does not.
    expect(
      failed({ jsonrpc: '2.0', error: { code: -32601, message: 'x' } }, revision, 'server'),
    ).not.toBeNull();
  });

  test('-32002 (resource not found) is forbidden at 2026-07-28 only', () => {
    expect(failed(failure(-32002), '2025-11-25', 'server')).toBeNull();
    expect(check(failure(-32002), '2026-07-28', 'server')?.errors).toEqual([
      '/error/code -32002 must not be emitted in 2026-07-28',
    ]);
    expect(failed(failure(-32042), '2026-07-28', 'server')).toBe('JSONRPCErrorResponse');
  });

  test('2026-07-28 errors with a definition of their own', () => {
    const R = '2026-07-28';
    expect(failed(failure(-32020), R, 'server')).toBeNull();
    expect(failed(failure(-32021), R, 'server')).toBe('MissingRequiredClientCapabilityError');
    expect(failed(failure(-32021, 1, { requiredCapabilities: { sampling: {} } }), R, 'server')).toBeNull();
    expect(failed(failure(-32022, 1, { requested: '2099-01-01' }), R, 'server')).toBe(
      'UnsupportedProtocolVersionError',
    );
    expect(failed(failure(-32022, 1, { requested: '2099-01-01', supported: [R] }), R, 'server')).toBeNull();
    expect(failed(failure(-32020, null), R, 'server')).toBe('JSONRPCErrorResponse');
  });

  test('2026-07-28 reserves -32020…-32099 for codes the schema defines', () => {
    expect(failed(failure(-32050), '2026-07-28', 'server')).toBe('JSONRPCErrorResponse');
    expect(failed(failure(-32050), '2025-11-25', 'server')).toBeNull();
    expect(failed(failure(-32000), '2026-07-28', 'server')).toBeNull();
    expect(failed(failure(-32603), '2026-07-28', 'server')).toBeNull();
  });

  test('2025-11-25 URL elicitation errors carry the elicitations', () => {
    expect(failed(failure(-32042), '2025-11-25', 'server')).toBe('URLElicitationRequiredError');
    const elicitation = {
      mode: 'url',
      elicitationId: 'e',
      message: 'Sign in',
      url: 'https://example.com/login',
    };
    expect(failed(failure(-32042, 1, { elicitations: [elicitation] }), '2025-11-25', 'server')).toBeNull();
  });
});

describe('batches', () => {
  const batch = [request('tools/list', undefined, 1), notification('notifications/initialized')];

  test('only 2025-03-26 has batches', () => {
    expect(failed(batch, '2025-03-26', 'client')).toBeNull();
    for (const revision of REVISIONS.filter((r) => r !== '2025-03-26')) {
      expect(check(batch, revision, 'client')?.errors).toEqual([
        `JSON-RPC batches (arrays) are not part of ${revision}`,
      ]);
    }
  });

  test('a batch is non-empty and not mixed', () => {
    expect(failed([], '2025-03-26', 'client')).toBe('JSONRPCMessage');
    expect(failed([request('ping'), response({})], '2025-03-26', 'client')).toBe('JSONRPCMessage');
    expect(failed([response({}, 1), failure(-32601, 2)], '2025-03-26', 'server')).toBeNull();
  });

  test('elements are validated one by one', () => {
    const violation = check(
      [request('ping', undefined, 1), request('tools/call', {}, 2)],
      '2025-03-26',
      'client',
    );
    expect(violation?.definition).toBe('CallToolRequest');
    expect(violation?.errors).toEqual(["[1] /params must have required property 'name'"]);
  });
});

describe('the oracle itself', () => {
  test('something that is not a JSON-RPC message', () => {
    expect(failed('hello', '2025-06-18', 'client')).toBe('JSONRPCMessage');
    expect(failed({ jsonrpc: '2.0', id: 1 }, '2025-06-18', 'client')).toBe('JSONRPCMessage');
    expect(
      check({ jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'x' } }, '2025-06-18', 'server')
        ?.errors[0],
    ).toMatch(/exactly one of result and error/);
  });

  test('an unknown revision is a programming error', () => {
    expect(() => oracle.check({}, { revision: '2099-01-01' as Revision, sender: 'client' })).toThrow(
      TypeError,
    );
  });

  test('defaultOracle() is one shared instance', () => {
    expect(defaultOracle()).toBe(oracle);
  });

  test('a missing spec folder fails loudly, on first use', () => {
    const lost = new WireOracle({ specDir: '/nonexistent/spec' });
    expect(() => lost.check(request('ping'), { revision: '2025-06-18', sender: 'client' })).toThrow(
      /Cannot read the MCP schema \/nonexistent\/spec\/2025-06-18\/schema\.json/,
    );
  });

  test('the violation names revision, sender and message', () => {
    const message = request('tools/frobnicate');
    expect(check(message, '2025-06-18', 'client')).toEqual({
      revision: '2025-06-18',
      sender: 'client',
      message,
      definition: 'ClientRequest',
      errors: ['/method "tools/frobnicate" is not a client request in 2025-06-18'],
    });
  });
});
