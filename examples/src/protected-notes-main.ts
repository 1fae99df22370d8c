#!/usr/bin/env node
/**
 * Runs the protected example with a development authorization server beside it, both on loopback:
 *
 *   node examples/dist/protected-notes-main.js [--port 3001] [--auth-port 9000] [--consent] [--cimd-loopback]
 *
 * (Port 0 picks free ports; the URLs are printed on stderr.)
 *
 * The authorization server auto-approves (a pretend user `dev-user`) unless `--consent` asks for its consent
 * page. Clients register themselves (Dynamic Client Registration or a Client ID Metadata Document);
 * `--cimd-loopback` also accepts metadata documents on loopback URLs, http included (development mode: the
 * inspector's OAuth debugger can then host its own).
 */
import { parseArgs } from 'node:util';
import { startDevAuthServer } from '@mcpengine/dev-auth';
import { NOTES_READ, NOTES_WRITE, serveProtected } from './protected-notes.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    'auth-port': { type: 'string' },
    consent: { type: 'boolean' },
    'cimd-loopback': { type: 'boolean' },
    help: { type: 'boolean' },
  },
});
if (values.help) {
  process.stderr.write(
    'Usage: protected-notes-main.js [--port 3001] [--auth-port 9000] [--consent] [--cimd-loopback]\n',
  );
  process.exit(0);
}

const authorization = await startDevAuthServer({
  port: Number(values['auth-port'] ?? 9000),
  autoApprove: values.consent !== true,
  scopes: [NOTES_READ, NOTES_WRITE, 'offline_access'],
  ...(values['cimd-loopback'] === true && { clientMetadataDocuments: { loopbackDocuments: true } }),
});
const serving = await serveProtected({ issuer: authorization.issuer, port: Number(values.port ?? 3001) });
process.stderr.write(
  `Protected MCP server:    ${serving.url}\n` +
    `  resource metadata:     ${serving.protectedResource.metadataUrl}\n` +
    `Authorization server:    ${authorization.issuer}${values.consent ? '' : ' (auto-approving)'}\n`,
);
const stop = () => {
  void Promise.all([serving.close(), authorization.close()]).then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
