/**
 * The protected example: a small notes server that needs OAuth access tokens, as a resource server in front of
 * any authorization server (the development one in examples and tests).
 *
 * - Every request needs a valid JWT access token issued by `issuer` for this server's URL (`aud`).
 * - `whoami` needs nothing more; `list-notes`, the `notes://all` resource and the `summarize-notes` prompt need
 *   `notes:read`; `add-note` needs `notes:write`. Items the token does not cover are not listed, and calling one
 *   is answered 403 `insufficient_scope`, so a client steps up.
 * - The token itself never leaves the server: `whoami` reports who is calling, not the credential.
 */
import { JwtVerifier, ProtectedResource, RemoteJwks } from 'mcpengine/auth';
import { serveHttp, type HttpServing } from 'mcpengine/http';
import type { JsonObject } from 'mcpengine/protocol';
import { McpServer } from 'mcpengine/server';

export const NOTES_READ = 'notes:read';
export const NOTES_WRITE = 'notes:write';

export function createProtectedServer(): McpServer {
  const server = new McpServer({
    name: 'mcpengine-protected-example',
    version: '0.1.0',
    description: 'A notes server that needs OAuth access tokens',
  });
  const notes: string[] = ['First note'];

  server.addTool({
    name: 'whoami',
    description: 'Tells who the server thinks is calling (subject, client and granted scopes)',
    annotations: { readOnlyHint: true },
    handler: (_args, ctx) => {
      const auth = ctx.auth;
      const caller: JsonObject = { scopes: [...(auth?.scopes ?? [])] };
      if (auth?.subject !== undefined) caller.subject = auth.subject;
      if (auth?.clientId !== undefined) caller.clientId = auth.clientId;
      return { content: [{ type: 'text', text: JSON.stringify(caller) }], structuredContent: caller };
    },
  });
  server.addTool({
    name: 'list-notes',
    description: 'Lists the notes',
    requiredScopes: [NOTES_READ],
    annotations: { readOnlyHint: true },
    handler: () => notes.map((note, i) => `${i + 1}. ${note}`).join('\n'),
  });
  server.addTool({
    name: 'add-note',
    description: 'Adds a note',
    requiredScopes: [NOTES_WRITE],
    inputSchema: {
      type: 'object',
      properties: { text: { type: 'string', minLength: 1, maxLength: 1000 } },
      required: ['text'],
      additionalProperties: false,
    },
    handler: (args) => {
      notes.push((args as { text: string }).text);
      return `Added note ${notes.length}`;
    },
  });
  server.addResource({
    uri: 'notes://all',
    name: 'notes',
    description: 'Every note, one per line',
    mimeType: 'text/plain',
    requiredScopes: [NOTES_READ],
    read: () => notes.join('\n'),
  });
  server.addPrompt({
    name: 'summarize-notes',
    description: 'Asks the model to summarize the notes',
    requiredScopes: [NOTES_READ],
    get: () => ({
      messages: [
        { role: 'user', content: { type: 'text', text: `Summarize these notes:\n${notes.join('\n')}` } },
      ],
    }),
  });
  return server;
}

export interface ProtectedServing extends HttpServing {
  readonly protectedResource: ProtectedResource;
}

/**
 * Serves the notes server at `http://<host>:<port>/mcp`, accepting JWT access tokens of `issuer` (keys from its
 * JWKS, `jwksUri` or `<issuer>/jwks`).
 */
export async function serveProtected(options: {
  issuer: string;
  jwksUri?: string;
  host?: string;
  port?: number;
}): Promise<ProtectedServing> {
  const server = createProtectedServer();
  // The resource identifier contains the port, known once listening: the hooks wait for it.
  const late: { guard?: ProtectedResource } = {};
  const unavailable = () => new Response(null, { status: 503, headers: { 'retry-after': '1' } });
  const serving = await serveHttp(server, {
    ...(options.host !== undefined && { host: options.host }),
    port: options.port ?? 0,
    authenticate: (request) => late.guard?.authenticate(request) ?? unavailable(),
    authorize: (message, auth) => late.guard?.authorize(server, message.method, message.params, auth),
    routes: (request, url) => late.guard?.metadataResponse(request, url),
  });
  const guard = new ProtectedResource({
    resource: serving.url,
    authorizationServers: [options.issuer],
    scopesSupported: [NOTES_READ],
    verifier: new JwtVerifier({
      issuer: options.issuer,
      audience: serving.url,
      jwks: new RemoteJwks(options.jwksUri ?? `${options.issuer}/jwks`),
    }),
    metadata: { resource_name: 'MCPEngine protected example' },
  });
  late.guard = guard;
  // Closing the handle closes the server too.
  return { ...serving, protectedResource: guard };
}
