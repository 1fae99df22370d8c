/**
 * The MCPEngine reference server: every fixture of the official conformance suite, plus a showcase of the
 * engine's own features. One definition, served over stdio (and HTTP) in every revision.
 */
import { McpServer, type ServerOptions } from 'mcpengine/server';
import { addApps } from './fixtures/apps.js';
import { addMrtrTools } from './fixtures/mrtr.js';
import { addConformancePrompts, addConformanceResources } from './fixtures/resources.js';
import { addShowcase } from './fixtures/showcase.js';
import { addTaskTools } from './fixtures/tasks.js';
import { addConformanceTools } from './fixtures/tools.js';

export const EVERYTHING_SERVER_INFO = { name: 'mcpengine-everything', version: '0.1.0' } as const;

export function createEverythingServer(options: Partial<ServerOptions> = {}): McpServer {
  const server = new McpServer({
    ...EVERYTHING_SERVER_INFO,
    title: 'MCPEngine everything server',
    description: 'Reference server exposing every conformance fixture and the engine showcase',
    instructions: 'A test server: every tool, resource and prompt exists to exercise an MCP feature.',
    ...options,
  });
  addConformanceTools(server);
  addMrtrTools(server);
  addConformanceResources(server);
  addConformancePrompts(server);
  addShowcase(server);
  addTaskTools(server);
  addApps(server);
  return server;
}
