/**
 * @mcpengine/dev-auth — a development OAuth 2.1 authorization server for local work, tests and
 * examples. From code: `startDevAuthServer({ autoApprove: true, clients: [...] })`. From the command line:
 * `npx mcpengine-dev-auth --help`.
 */
export { DevAuthorizationServer, type DevAuthServerOptions } from './server.js';
export { startDevAuthServer, type RunningDevAuthServer, type StartDevAuthServerOptions } from './node.js';
export { redirectUriMatches, type DevClient } from './clients.js';
