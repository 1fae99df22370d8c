#!/usr/bin/env node
/**
 * The development authorization server from the command line:
 *
 *   mcpengine-dev-auth [--port 9000] [--auto-approve] [--scopes mcp:read,mcp:write]
 *     [--client id[:secret]=redirect_uri[,redirect_uri…]]… [--resource https://…/mcp]…
 *
 * Prints the issuer on stdout once listening; stops on SIGINT/SIGTERM.
 */
import { parseArgs } from 'node:util';
import type { DevClient } from './clients.js';
import { startDevAuthServer } from './node.js';

const USAGE = `Usage: mcpengine-dev-auth [options]
  --host <ip>            interface to bind (default 127.0.0.1; loopback only unless --allow-remote)
  --port <n>             port (default 9000; 0 picks one)
  --issuer <url>         issuer identifier (default http://<host>:<port>)
  --auto-approve         approve every valid authorization request without a consent page
  --subject <name>       the pretend user (default dev-user)
  --scopes <a,b,…>       scopes_supported (default: any scope)
  --resource <url>       a resource tokens may be issued for (repeatable; default: any)
  --client <spec>        pre-register id[:secret]=redirect_uri[,redirect_uri…] (repeatable)
  --no-registration      turn Dynamic Client Registration off
  --cimd-loopback        development mode: accept Client ID Metadata Documents on loopback hosts, http
                         included (the spec requires https client ids; nothing else is opened)
  --allow-remote         allow a non-loopback --host
  --help`;

function parseClient(spec: string): DevClient {
  const eq = spec.indexOf('=');
  const credentials = eq < 0 ? spec : spec.slice(0, eq);
  const redirects =
    eq < 0
      ? []
      : spec
          .slice(eq + 1)
          .split(',')
          .filter((u) => u.length > 0);
  const colon = credentials.indexOf(':');
  const client: DevClient = {
    client_id: colon < 0 ? credentials : credentials.slice(0, colon),
    redirect_uris: redirects,
  };
  if (colon >= 0) client.client_secret = credentials.slice(colon + 1);
  return client;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      issuer: { type: 'string' },
      'auto-approve': { type: 'boolean' },
      subject: { type: 'string' },
      scopes: { type: 'string' },
      resource: { type: 'string', multiple: true },
      client: { type: 'string', multiple: true },
      'no-registration': { type: 'boolean' },
      'cimd-loopback': { type: 'boolean' },
      'allow-remote': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const running = await startDevAuthServer({
    ...(values.host !== undefined && { host: values.host }),
    port: values.port === undefined ? 9000 : Number(values.port),
    ...(values.issuer !== undefined && { issuer: values.issuer }),
    autoApprove: values['auto-approve'] === true,
    ...(values.subject !== undefined && { subject: values.subject }),
    ...(values.scopes !== undefined && { scopes: values.scopes.split(',').filter((s) => s.length > 0) }),
    ...(values.resource !== undefined && { resources: values.resource }),
    clients: (values.client ?? []).map(parseClient),
    dynamicRegistration: values['no-registration'] !== true,
    ...(values['cimd-loopback'] === true && { clientMetadataDocuments: { loopbackDocuments: true } }),
    allowRemote: values['allow-remote'] === true,
  });
  process.stdout.write(`${running.issuer}\n`);
  process.stderr.write(
    `Development authorization server (not for production) at ${running.issuer}\n` +
      `  metadata: ${running.issuer}/.well-known/oauth-authorization-server\n` +
      `  ${values['auto-approve'] ? 'auto-approving every request' : 'consent page on /authorize'}\n`,
  );
  const stop = () => {
    void running.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `dev authorization server: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
