/**
 * The engine's client, in one place for every generator test: connects to an in-process server over the memory
 * transport, with a WireTap on the server's side so every message it sends is checked against the official
 * schema of the negotiated revision.
 */
import { Client } from 'mcpengine/client';
import type { CallToolResult, Tool } from 'mcpengine/protocol';
import type { McpServer } from 'mcpengine/server';
import { createMemoryTransportPair } from 'mcpengine/memory';
import { tapTransport, WireTap, type Revision } from '@mcpengine/oracle';

export interface TestClient {
  readonly tap: WireTap;
  tools(): Promise<Tool[]>;
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
  /** Tool-list changes announced by the server. */
  readonly listChanged: () => number;
}

export async function connect(server: McpServer, revision: Revision | 'auto' = 'auto'): Promise<TestClient> {
  const [clientSide, serverSide] = createMemoryTransportPair();
  const tap = new WireTap({ validate: ['server'] });
  await server.connect(tapTransport(serverSide, tap, 'server'));
  let changes = 0;
  const client = await new Client({ name: 'generator-test', version: '1.0.0' }).connect(clientSide, {
    revision,
  });
  client.onNotification('notifications/tools/list_changed', () => changes++);
  return {
    tap,
    async tools() {
      const out: Tool[] = [];
      for await (const tool of client.tools({ cache: false })) out.push(tool);
      return out;
    },
    call: (name, args) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>,
    close: () => client.close(),
    listChanged: () => changes,
  };
}
