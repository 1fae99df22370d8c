import { describe, expect, test } from 'vitest';
import type { Side } from './revisions.js';
import { WireTap } from './wire-tap.js';

const text = { type: 'text', text: 'hello' };
const audio = { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' };
const serverInfo = { name: 'fixture', version: '1.0.0' };
const clientInfo = { name: 'tester', version: '1.0.0' };

/** Replays `script` into a fresh tap; strings go in serialized, as a transport would deliver them. */
function replay(script: readonly (readonly [Side, unknown])[], tap = new WireTap()): WireTap {
  for (const [sender, message] of script) tap.record(JSON.stringify(message), sender);
  return tap;
}

const initialize = (protocolVersion: string, id = 0) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: { elicitation: {} }, clientInfo },
});
const initialized = (protocolVersion: string, id = 0) => ({
  jsonrpc: '2.0',
  id,
  result: { protocolVersion, capabilities: { tools: {} }, serverInfo },
});

describe('a legacy conversation', () => {
  const conversation = [
    ['client', initialize('2025-06-18')],
    ['server', initialized('2025-06-18')],
    ['client', { jsonrpc: '2.0', method: 'notifications/initialized' }],
    ['client', { jsonrpc: '2.0', id: 1, method: 'tools/list' }],
    [
      'server',
      { jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'speak', inputSchema: { type: 'object' } }] } },
    ],
    [
      'client',
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'speak', _meta: { progressToken: 'p' } },
      },
    ],
    [
      'server',
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress: 1 } },
    ],
    [
      'server',
      {
        jsonrpc: '2.0',
        id: 'e1',
        method: 'elicitation/create',
        params: {
          message: 'Name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
        },
      },
    ],
    ['client', { jsonrpc: '2.0', id: 'e1', result: { action: 'accept', content: { name: 'Ada' } } }],
    ['server', { jsonrpc: '2.0', id: 2, result: { content: [text, audio] } }],
    ['client', { jsonrpc: '2.0', id: 3, method: 'ping' }],
    ['server', { jsonrpc: '2.0', id: 3, result: {} }],
  ] as const;

  test('validates clean at the negotiated revision', () => {
    const tap = replay(conversation);
    expect(tap.revision).toBe('2025-06-18');
    expect(tap.violations).toEqual([]);
    expect(() => tap.assertClean()).not.toThrow();
  });

  test('knows no revision before the initialize result', () => {
    const tap = replay(conversation.slice(0, 1));
    expect(tap.revision).toBeUndefined();
    expect(tap.violations).toEqual([]);
  });

  test('validates the initialize request at the revision it asks for, the rest at the one negotiated', () => {
    const tap = replay([
      // `title` and `icons` in clientInfo only exist from 2025-06-18 / 2025-11-25; requested 2025-11-25.
      [
        'client',
        {
          ...initialize('2025-11-25'),
          params: { ...initialize('2025-11-25').params, clientInfo: { ...clientInfo, title: 'T' } },
        },
      ],
      ['server', initialized('2024-11-05')],
      ['client', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'speak' } }],
      ['server', { jsonrpc: '2.0', id: 2, result: { content: [audio] } }],
    ]);
    expect(tap.revision).toBe('2024-11-05');
    expect(tap.violations.map((v) => [v.revision, v.sender, v.definition])).toEqual([
      ['2024-11-05', 'server', 'CallToolResult'],
    ]);
  });

  test('messages before the initialize result validate at the requested revision', () => {
    const log = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } };
    const ping = { jsonrpc: '2.0', id: 'p', method: 'ping' };
    const early = replay([
      ['client', initialize('2024-11-05')],
      ['server', log],
      ['server', ping],
      ['client', { jsonrpc: '2.0', id: 'p', result: {} }],
      // Only 2025-11-25 has notifications/elicitation/complete.
      [
        'server',
        { jsonrpc: '2.0', method: 'notifications/elicitation/complete', params: { elicitationId: 'e' } },
      ],
    ]);
    expect(early.revision).toBeUndefined();
    expect(early.violations.map((v) => [v.revision, v.definition])).toEqual([
      ['2024-11-05', 'ServerNotification'],
    ]);
  });

  test('a requested revision it does not know validates at 2025-11-25', () => {
    const tap = replay([
      ['client', initialize('2099-01-01')],
      ['server', initialized('2025-11-25')],
    ]);
    expect(tap.violations).toEqual([]);
    expect(tap.revision).toBe('2025-11-25');
  });

  test('a negotiated revision it does not know is a violation', () => {
    const tap = replay([
      ['client', initialize('2025-06-18')],
      ['server', initialized('2099-01-01')],
    ]);
    expect(tap.revision).toBeUndefined();
    expect(tap.violations).toHaveLength(1);
    expect(tap.violations[0]).toMatchObject({
      sender: 'server',
      definition: 'InitializeResult',
      errors: ['/result/protocolVersion "2099-01-01" is not a revision this oracle knows'],
    });
  });

  test('a response is validated against the result of the request it answers', () => {
    const tap = replay([
      ['client', initialize('2025-06-18')],
      ['server', initialized('2025-06-18')],
      ['client', { jsonrpc: '2.0', id: 7, method: 'tools/list' }],
      ['server', { jsonrpc: '2.0', id: 7, result: { content: [text] } }],
    ]);
    expect(tap.violations.map((v) => v.definition)).toEqual(['ListToolsResult']);
  });

  test('ids are matched per direction: a server request may reuse a client id', () => {
    const tap = replay([
      ['client', initialize('2025-06-18', 1)],
      ['server', initialized('2025-06-18', 1)],
      ['client', { jsonrpc: '2.0', id: 5, method: 'tools/list' }],
      ['server', { jsonrpc: '2.0', id: 5, method: 'roots/list' }],
      ['client', { jsonrpc: '2.0', id: 5, result: { roots: [] } }],
      ['server', { jsonrpc: '2.0', id: 5, result: { tools: [] } }],
    ]);
    expect(tap.violations).toEqual([]);
  });

  test('batches: element-wise at 2025-03-26, a violation elsewhere', () => {
    const tap = replay([
      ['client', initialize('2025-03-26')],
      ['server', initialized('2025-03-26')],
      [
        'client',
        [
          { jsonrpc: '2.0', id: 1, method: 'ping' },
          { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        ],
      ],
      [
        'server',
        [
          { jsonrpc: '2.0', id: 2, result: { tools: 'none' } },
          { jsonrpc: '2.0', id: 1, result: {} },
        ],
      ],
    ]);
    expect(tap.violations.map((v) => [v.definition, v.errors])).toEqual([
      ['ListToolsResult', ['/result/tools must be array']],
    ]);

    const later = replay([
      ['client', initialize('2025-06-18')],
      ['server', initialized('2025-06-18')],
      ['client', [{ jsonrpc: '2.0', id: 1, method: 'ping' }]],
    ]);
    expect(later.violations.map((v) => v.definition)).toEqual(['JSONRPCMessage']);
  });
});

describe('a modern conversation', () => {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
    'io.modelcontextprotocol/clientInfo': clientInfo,
  };
  const cache = { ttlMs: 0, cacheScope: 'private' };
  const task = { taskId: 't-1', status: 'working', createdAt: 'now', lastUpdatedAt: 'now', ttlMs: null };
  const elicit = {
    method: 'elicitation/create',
    params: {
      message: 'Name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
    },
  };

  const conversation = [
    ['client', { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } }],
    [
      'server',
      {
        jsonrpc: '2.0',
        id: 1,
        result: {
          resultType: 'complete',
          supportedVersions: ['2026-07-28'],
          capabilities: { tools: {} },
          ...cache,
        },
      },
    ],
    [
      'client',
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'greet', _meta: { ...meta, progressToken: 9 } },
      },
    ],
    [
      'server',
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 9, progress: 0.5 } },
    ],
    [
      'server',
      {
        jsonrpc: '2.0',
        id: 2,
        result: { resultType: 'input_required', inputRequests: { who: elicit }, requestState: 's' },
      },
    ],
    [
      'client',
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: {
          name: 'greet',
          inputResponses: { who: { action: 'accept', content: { name: 'Ada' } } },
          requestState: 's',
          _meta: meta,
        },
      },
    ],
    ['server', { jsonrpc: '2.0', id: 3, result: { resultType: 'task', ...task } }],
    ['client', { jsonrpc: '2.0', id: 4, method: 'tasks/get', params: { taskId: 't-1', _meta: meta } }],
    [
      'server',
      {
        jsonrpc: '2.0',
        id: 4,
        result: { resultType: 'complete', ...task, status: 'completed', result: { content: [text] } },
      },
    ],
    [
      'client',
      {
        jsonrpc: '2.0',
        id: 'sub',
        method: 'subscriptions/listen',
        params: { notifications: { toolsListChanged: true }, _meta: meta },
      },
    ],
    [
      'server',
      {
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: {
          notifications: { toolsListChanged: true },
          _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub' },
        },
      },
    ],
    [
      'server',
      {
        jsonrpc: '2.0',
        method: 'notifications/tools/list_changed',
        params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub' } },
      },
    ],
    ['client', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'sub' } }],
    [
      'server',
      {
        jsonrpc: '2.0',
        id: 'sub',
        result: { resultType: 'complete', _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub' } },
      },
    ],
  ] as const;

  test('validates clean at the revision its requests announce', () => {
    const tap = replay(conversation);
    expect(tap.revision).toBe('2026-07-28');
    expect(tap.violations).toEqual([]);
  });

  test('catches what 2026-07-28 requires', () => {
    const tap = replay([
      ...conversation.slice(0, 2),
      ['client', { jsonrpc: '2.0', id: 5, method: 'tools/list', params: { _meta: meta } }],
      ['server', { jsonrpc: '2.0', id: 5, result: { resultType: 'complete', tools: [] } }],
      ['client', { jsonrpc: '2.0', id: 6, method: 'prompts/get', params: { name: 'p', _meta: meta } }],
      ['server', { jsonrpc: '2.0', id: 6, result: { messages: [] } }],
      ['server', { jsonrpc: '2.0', id: 7, method: 'ping' }],
    ]);
    expect(tap.violations.map((v) => [v.revision, v.definition])).toEqual([
      ['2026-07-28', 'ListToolsResult'],
      ['2026-07-28', 'JSONRPCResultResponse'],
      ['2026-07-28', 'ServerRequest'],
    ]);
  });

  test('a request announcing an unknown revision is a violation', () => {
    const tap = replay([
      [
        'client',
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/list',
          params: { _meta: { ...meta, 'io.modelcontextprotocol/protocolVersion': '2030-01-01' } },
        },
      ],
    ]);
    expect(tap.violations).toHaveLength(1);
    expect(tap.violations[0]?.definition).toBe('RequestMetaObject');
    expect(tap.violations[0]?.errors[0]).toMatch(/"2030-01-01" is not a revision this oracle knows/);
  });
});

describe('options and reporting', () => {
  /** Audio content does not exist at 2024-11-05. */
  const badAudio = [
    ['client', initialize('2024-11-05')],
    ['server', initialized('2024-11-05')],
    ['client', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'speak' } }],
    ['server', { jsonrpc: '2.0', id: 1, result: { content: [audio] } }],
  ] as const;

  test('a pinned revision overrides negotiation', () => {
    expect(replay(badAudio).violations.map((v) => [v.revision, v.definition])).toEqual([
      ['2024-11-05', 'CallToolResult'],
    ]);
    const pinned = replay(badAudio, new WireTap({ revision: '2025-06-18' }));
    expect(pinned.revision).toBe('2025-06-18');
    expect(pinned.violations).toEqual([]);
  });

  test('only the chosen sides are validated, both are followed', () => {
    const script = [...badAudio, ['client', { jsonrpc: '2.0', id: 2, method: 'no/such/method' }]] as const;
    expect(replay(script, new WireTap({ validate: ['client'] })).violations.map((v) => v.sender)).toEqual([
      'client',
    ]);
    const serverOnly = replay(script, new WireTap({ validate: ['server'] }));
    expect(serverOnly.violations.map((v) => v.sender)).toEqual(['server']);
  });

  test('text that is not JSON is a violation', () => {
    const tap = new WireTap();
    tap.record('{"jsonrpc":', 'server');
    expect(tap.violations).toMatchObject([
      { sender: 'server', definition: 'JSONRPCMessage', message: '{"jsonrpc":' },
    ]);
    expect(tap.violations[0]?.errors[0]).toMatch(/^not JSON: /);
  });

  test('parsed messages are accepted as they are', () => {
    const tap = new WireTap({ revision: '2025-06-18' });
    tap.record({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, 'client');
    tap.record({ jsonrpc: '2.0', id: 1, result: {} }, 'server');
    expect(tap.violations.map((v) => v.definition)).toEqual(['ListToolsResult']);
  });

  test('assertClean lists every violation with its definition, errors and message', () => {
    const tap = replay([...badAudio, ['client', { jsonrpc: '2.0', id: 2, method: 'no/such/method' }]]);
    expect(tap.violations).toHaveLength(2);
    let message = '';
    try {
      tap.assertClean();
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^2 message\(s\) violate the official MCP schema/);
    expect(message).toContain('1) CallToolResult (2024-11-05, sent by the server)');
    expect(message).toContain("  - /result/content/0 must have required property 'text'");
    expect(message).toContain('"mimeType":"audio/wav"');
    expect(message).toContain('2) ClientRequest (2024-11-05, sent by the client)');
    expect(message).toContain('  - /method "no/such/method" is not a client request in 2024-11-05');
  });

  test('violations is a copy', () => {
    const tap = replay(badAudio);
    tap.violations.length = 0;
    expect(tap.violations).toHaveLength(1);
  });

  test('an unknown pinned revision is refused', () => {
    expect(() => new WireTap({ revision: '1999-01-01' as never })).toThrow(TypeError);
  });
});

describe('2025-11-25 task augmentation follows the receiver’s declared capability', () => {
  const taskCall = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'speak', task: { ttl: 60 } },
  };
  const plainResult = { jsonrpc: '2.0', id: 1, result: { content: [text] } };
  const createTask = {
    jsonrpc: '2.0',
    id: 1,
    result: {
      task: {
        taskId: 't1',
        status: 'working',
        createdAt: '2026-01-01T00:00:00Z',
        lastUpdatedAt: '2026-01-01T00:00:00Z',
        ttl: 60,
      },
    },
  };
  const handshake = (capabilities: object) =>
    [
      ['client', initialize('2025-11-25')],
      [
        'server',
        { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', capabilities, serverInfo } },
      ],
      ['client', { jsonrpc: '2.0', method: 'notifications/initialized' }],
      ['client', taskCall],
    ] as const;

  test('a server without tasks.requests.tools.call answers a task-augmented call normally', () => {
    expect(replay([...handshake({ tools: {} }), ['server', plainResult]]).violations).toEqual([]);
  });

  test('a server that declared it must answer with a CreateTaskResult', () => {
    const declared = { tools: {}, tasks: { requests: { tools: { call: {} } } } };
    expect(replay([...handshake(declared), ['server', createTask]]).violations).toEqual([]);
    const [violation] = replay([...handshake(declared), ['server', plainResult]]).violations;
    expect(violation?.definition).toBe('CreateTaskResult');
  });
});
