/**
 * A server that declares no task capability processes a task-augmented `tools/call` normally (2025-11-25 tasks:
 * "Receivers that do not declare the task capability for a request type MUST process requests of that type
 * normally, ignoring any task-augmentation metadata"). Every message the server sends is schema-checked.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { assertAllTapsClean, initializeRaw, modernParams, RawPeer } from '../../test/harness.js';
import { McpServer } from '../index.js';

afterEach(() => assertAllTapsClean());

const EXT = 'io.modelcontextprotocol/tasks';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';

/** Only tools that never run as tasks: the server declares neither `tasks` nor the tasks extension. */
function serverWithoutTasks(): McpServer {
  const server = new McpServer({ name: 'no-tasks', version: '1.0.0' });
  server.addTool<{ text?: string }>({
    name: 'echo',
    description: 'Echoes its text',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    handler: ({ text = '' }) => `echo ${text}`,
  });
  return server;
}

describe('a server without the tasks capability', () => {
  it('2025-11-25: ignores task augmentation and answers the call itself', async () => {
    const peer = await RawPeer.open(serverWithoutTasks());
    const init = await initializeRaw(peer, '2025-11-25', { tasks: { requests: {} } });
    expect(init.result.capabilities.tasks).toBeUndefined();
    const response = await peer.request(1, 'tools/call', {
      name: 'echo',
      arguments: { text: 'hi' },
      task: { ttl: 60_000 },
    });
    expect(response.error).toBeUndefined();
    expect(response.result.content).toEqual([{ type: 'text', text: 'echo hi' }]);
    expect(response.result.task).toBeUndefined();
  });

  it('2025-11-25: ignores even a malformed task param', async () => {
    const peer = await RawPeer.open(serverWithoutTasks());
    await initializeRaw(peer, '2025-11-25');
    const response = await peer.request(1, 'tools/call', { name: 'echo', task: 'soon' });
    expect(response.result.content).toEqual([{ type: 'text', text: 'echo ' }]);
  });

  it('2025-11-25: a server that declares tasks still refuses a forbidden tool called as a task', async () => {
    const server = serverWithoutTasks();
    server.addTool({
      name: 'long',
      description: 'May run as a task',
      execution: { taskSupport: 'optional' },
      handler: () => 'done',
    });
    const peer = await RawPeer.open(server);
    const init = await initializeRaw(peer, '2025-11-25');
    expect(init.result.capabilities.tasks.requests).toEqual({ tools: { call: {} } });
    const response = await peer.request(1, 'tools/call', { name: 'echo', task: { ttl: 60_000 } });
    expect(response.error.code).toBe(-32601);
  });

  it('2026-07-28: answers a client that declares the tasks extension synchronously', async () => {
    const peer = await RawPeer.open(serverWithoutTasks());
    const discover = await peer.request(1, 'server/discover', modernParams());
    expect(discover.result.capabilities.extensions?.[EXT]).toBeUndefined();
    const response = await peer.request(
      2,
      'tools/call',
      modernParams(
        { name: 'echo', arguments: { text: 'hi' }, task: { ttl: 60_000 } },
        { [CAPS]: { extensions: { [EXT]: {} } } },
      ),
    );
    expect(response.error).toBeUndefined();
    expect(response.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'echo hi' }],
    });
    expect(response.result.taskId).toBeUndefined();
  });
});
