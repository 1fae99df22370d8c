/**
 * mcpengine/auth/dev-server — a development OAuth 2.1 authorization server for local work, tests and
 * examples. From code: `startDevAuthServer({ autoApprove: true, clients: [...] })`. From the command line:
 * `node node_modules/mcpengine/dist/auth/dev-server/cli.js --help`.
 */
export { DevAuthorizationServer, type DevAuthServerOptions } from './server.js';
export { startDevAuthServer, type RunningDevAuthServer, type StartDevAuthServerOptions } from './node.js';
export { redirectUriMatches, type DevClient } from './clients.js';
