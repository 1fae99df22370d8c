/**
 * The MCPEngine server every engine measurement uses (the `engine.js` process and the in-process `profile.js`):
 * one McpServer with the echo tool, plus the 53-tool catalogue when asked, with JSON Schema inputs.
 */
import { McpServer } from 'mcpengine/server';
import {
  CATALOG_TOOLS,
  catalogDescription,
  catalogJsonSchema,
  catalogToolName,
  ECHO_DESCRIPTION,
  ECHO_INPUT_SCHEMA,
  echoText,
  SERVER_INFO,
  type EchoArgs,
} from './fixtures.js';

export function createEngineServer(catalog: boolean): McpServer {
  const server = new McpServer(SERVER_INFO);
  server.addTool<EchoArgs>({
    name: 'echo',
    description: ECHO_DESCRIPTION,
    inputSchema: ECHO_INPUT_SCHEMA,
    handler: (args) => echoText(args),
  });
  if (catalog) {
    for (let i = 0; i < CATALOG_TOOLS; i++) {
      server.addTool({
        name: catalogToolName(i),
        description: catalogDescription(i),
        inputSchema: catalogJsonSchema(i),
        handler: () => 'no entries',
      });
    }
  }
  return server;
}
