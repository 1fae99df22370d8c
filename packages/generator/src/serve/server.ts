/**
 * The tools model → an `McpServer`. Every operation is registered through the engine, which compiles its
 * schemas; an operation the engine refuses is left out with a warning, so the server that starts is always one
 * the engine can serve in every revision.
 */
import { McpServer } from 'mcpengine/server';
import { OperationCaller } from '../runtime/call.js';
import type { RuntimeOptions } from '../runtime/config.js';
import type { ApiModel, OperationTool } from '../runtime/model.js';
import { registerOperationTools, type Registration, type RegisterOptions } from '../runtime/register.js';
import { kebab } from '../map/names.js';

export interface OpenApiServer {
  readonly server: McpServer;
  readonly caller: OperationCaller;
  readonly registration: Registration;
  /** The operations served (those the engine accepted). */
  readonly tools: readonly OperationTool[];
  readonly warnings: readonly string[];
}

export interface CreateServerOptions extends RuntimeOptions, RegisterOptions {
  /** Skip the startup check of base URL and credentials (listing tools needs neither). */
  readonly skipStartupCheck?: boolean;
}

export function createOpenApiServer(api: ApiModel, options: CreateServerOptions = {}): OpenApiServer {
  const caller = new OperationCaller(api, options);
  if (!options.skipStartupCheck) caller.checkStartup();
  const server = new McpServer({
    name: kebab(api.title),
    version: api.version === '' ? '0.0.0' : api.version,
    title: api.title,
    ...(api.description === undefined ? {} : { description: api.description }),
    instructions: `Tools that call the ${api.title} HTTP API. Results over the size limit are cut and marked "truncated"; list operations take max_pages to fetch more than one page.`,
    onError: (error, where) =>
      caller.options.log(
        `[openapi] internal error in ${where}: ${caller.secrets.redact(error instanceof Error ? error.message : String(error))}`,
      ),
  });
  const warnings: string[] = [];
  const registration = registerOperationTools(server, api.tools, caller, {
    ...(api.tokensPerByte === undefined ? {} : { tokensPerByte: api.tokensPerByte }),
    ...options,
    onRefused: (tool, error) => warnings.push(`${tool.pointer}: left out: ${error.message}`),
  });
  return { server, caller, registration, tools: registration.tools, warnings };
}
