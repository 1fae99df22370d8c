/**
 * What the oracle derives from the official schemas: method tables, result definitions, error definitions,
 * batches. These tests pin the derivation, so that a regenerated schema that changes it is noticed.
 */
import { describe, expect, test } from 'vitest';
import { REVISIONS } from './revisions.js';
import { SchemaRegistry } from './schema-registry.js';

const registry = new SchemaRegistry();

describe.each(REVISIONS)('%s', (revision) => {
  const schema = registry.revision(revision);

  test('every request either side may send has a result definition', () => {
    for (const side of ['client', 'server'] as const) {
      for (const method of schema.methods.methods('request', side)) {
        const result = schema.methods.resultDefinitionFor(method);
        expect(result, method).toBeDefined();
        expect(schema.document.has(result ?? ''), method).toBe(true);
      }
    }
  });

  test('every definition compiles under strict mode', () => {
    for (const name of schema.document.definitionNames) {
      expect(() => schema.document.validate(name, {}), name).not.toThrow();
    }
  });

  test('batches only at 2025-03-26; resultType from 2026-07-28', () => {
    expect(schema.allowsBatches).toBe(revision === '2025-03-26');
    expect(schema.requiresResultType).toBe(revision === '2026-07-28');
  });
});

test('result definitions follow the request names, with EmptyResult for the irregular ones', () => {
  const legacy = registry.revision('2025-11-25').methods;
  const table = Object.fromEntries(
    [
      'initialize',
      'ping',
      'logging/setLevel',
      'resources/subscribe',
      'resources/unsubscribe',
      'tools/list',
      'tools/call',
      'resources/read',
      'prompts/get',
      'completion/complete',
      'sampling/createMessage',
      'elicitation/create',
      'roots/list',
      'tasks/get',
      'tasks/result',
      'tasks/cancel',
      'tasks/list',
    ].map((method) => [method, legacy.resultDefinitionFor(method)]),
  );
  expect(table).toEqual({
    initialize: 'InitializeResult',
    ping: 'EmptyResult',
    'logging/setLevel': 'EmptyResult',
    'resources/subscribe': 'EmptyResult',
    'resources/unsubscribe': 'EmptyResult',
    'tools/list': 'ListToolsResult',
    'tools/call': 'CallToolResult',
    'resources/read': 'ReadResourceResult',
    'prompts/get': 'GetPromptResult',
    'completion/complete': 'CompleteResult',
    'sampling/createMessage': 'CreateMessageResult',
    'elicitation/create': 'ElicitResult',
    'roots/list': 'ListRootsResult',
    'tasks/get': 'GetTaskResult',
    'tasks/result': 'GetTaskPayloadResult',
    'tasks/cancel': 'CancelTaskResult',
    'tasks/list': 'ListTasksResult',
  });
  const modern = registry.revision('2026-07-28').methods;
  expect(modern.resultDefinitionFor('server/discover')).toBe('DiscoverResult');
  expect(modern.resultDefinitionFor('subscriptions/listen')).toBe('SubscriptionsListenResult');
  expect(modern.resultDefinitionFor('ping')).toBeUndefined();
});

test('2026-07-28 has no server requests, and input_required answers only three methods', () => {
  const modern = registry.revision('2026-07-28').methods;
  expect(modern.methods('request', 'server')).toEqual([]);
  const admitting = modern
    .methods('request', 'client')
    .filter((method) => modern.admitsInputRequired(method));
  expect(admitting.sort()).toEqual(['prompts/get', 'resources/read', 'tools/call']);
});

test('2025-11-25 task augmentation: the requests whose params accept `task`', () => {
  const legacy = registry.revision('2025-11-25').methods;
  const methods = [...legacy.methods('request', 'client'), ...legacy.methods('request', 'server')];
  expect([...new Set(methods.filter((method) => legacy.acceptsTask(method)))].sort()).toEqual([
    'elicitation/create',
    'sampling/createMessage',
    'tools/call',
  ]);
});

test('error definitions by code', () => {
  const modern = registry.revision('2026-07-28');
  expect(modern.errorDefinitionFor(-32020)).toEqual({ definition: 'HeaderMismatchError', scope: 'response' });
  expect(modern.errorDefinitionFor(-32021)).toEqual({
    definition: 'MissingRequiredClientCapabilityError',
    scope: 'response',
  });
  expect(modern.errorDefinitionFor(-32022)).toEqual({
    definition: 'UnsupportedProtocolVersionError',
    scope: 'response',
  });
  expect(modern.errorDefinitionFor(-32700)).toEqual({ definition: 'ParseError', scope: 'error' });
  expect(registry.revision('2025-11-25').errorDefinitionFor(-32042)).toEqual({
    definition: 'URLElicitationRequiredError',
    scope: 'response',
  });
  expect(registry.revision('2025-06-18').errorDefinitionFor(-32700)).toBeUndefined();
});

test('the tasks extension: client requests and a server notification, each with its result', () => {
  const tasks = registry.tasksExtension();
  expect(tasks.methods('request', 'client').sort()).toEqual(['tasks/cancel', 'tasks/get', 'tasks/update']);
  expect(tasks.methods('request', 'server')).toEqual([]);
  expect(tasks.methods('notification', 'server')).toEqual(['notifications/tasks']);
  expect(
    tasks
      .methods('request', 'client')
      .map((method) => tasks.resultDefinitionFor(method))
      .sort(),
  ).toEqual(['CancelTaskResult', 'GetTaskResult', 'UpdateTaskResult']);
  expect(() => tasks.document.validate('CreateTaskResult', {})).not.toThrow();
});
