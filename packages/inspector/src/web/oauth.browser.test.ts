/**
 * The OAuth debugger end to end in headless Chromium: the protected example server (a real resource server
 * checking JWT access tokens) and the development authorization server, walked step by step from the page —
 * challenge, resource metadata, authorization server metadata, Dynamic Client Registration, authorization with
 * PKCE in a real browser tab, token, refresh, the authorized request — then the inspector connects with the
 * token. Registration through the inspector's own Client ID Metadata Document (the development server accepting
 * loopback documents), then step-up: a tool needing notes:write answered 403 insufficient_scope, a second
 * authorization in the browser, the call accepted. And an unknown pre-registered client id gets no code; a forged
 * redirect is refused. About 10 s on 2 cores.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../test/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevAuthServer, type RunningDevAuthServer } from '@mcpengine/dev-auth';
import {
  NOTES_READ,
  NOTES_WRITE,
  serveProtected,
  type ProtectedServing,
} from '@mcpengine/examples/protected-notes';
import { startBackend, type RunningBackend } from './backend.js';

const ROOT = resolve(import.meta.dirname, '../../../..');
const ASSETS = join(ROOT, 'packages/inspector/dist/ui');

let browser: Browser;
let authorization: RunningDevAuthServer;
let serving: ProtectedServing;
let backend: RunningBackend;

beforeAll(async () => {
  if (!existsSync(join(ASSETS, 'app.js'))) throw new Error('build the UI first: npm run build');
  browser = await launchChromium();
  authorization = await startDevAuthServer({
    autoApprove: true,
    scopes: [NOTES_READ, NOTES_WRITE, 'offline_access'],
    clientMetadataDocuments: { loopbackDocuments: true },
  });
  serving = await serveProtected({ issuer: authorization.issuer });
  backend = await startBackend({
    target: { kind: 'http', url: serving.url, transport: 'streamable-http' },
    assetsDir: ASSETS,
  });
}, 60_000);

afterAll(async () => {
  await backend?.close();
  await serving?.close();
  await authorization?.close();
  await browser?.close();
});

const step = (page: Page, name: string) => page.locator(`[data-step="${name}"]`);
const statusOf = (page: Page, name: string) => step(page, name).locator('.step-status').textContent();

async function nextStep(page: Page, name: string, status: RegExp = /done/): Promise<void> {
  await page.getByRole('button', { name: 'Next step' }).click();
  await expect.poll(() => statusOf(page, name), { timeout: 15_000 }).toMatch(status);
}

describe('the OAuth debugger', () => {
  it('walks discovery, registration, PKCE authorization, token and refresh, then connects with the token', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(backend.url);
      await page.getByRole('tab', { name: 'OAuth' }).click();
      await page.getByLabel('Scopes to ask for').fill(`${NOTES_READ} offline_access`);
      await page.getByRole('button', { name: 'Start over' }).click();

      await nextStep(page, 'challenge');
      await expect
        .poll(() => step(page, 'challenge').textContent())
        .toMatch(/401 Unauthorized without a token/);
      await expect.poll(() => step(page, 'challenge').textContent()).toMatch(/POST .*\/mcp → 401/);

      await nextStep(page, 'resource-metadata');
      await expect
        .poll(() => step(page, 'resource-metadata').textContent())
        .toMatch(/authorization_servers names at least one/);
      await nextStep(page, 'authorization-server-metadata');
      await expect
        .poll(() => step(page, 'authorization-server-metadata').textContent())
        .toMatch(/code_challenge_methods_supported lists S256/);
      await nextStep(page, 'registration');
      await expect.poll(() => step(page, 'registration').textContent()).toMatch(/201 Created/);

      await nextStep(page, 'authorization', /waiting/);
      // Every check so far passed or warned: none failed.
      expect(await page.locator('.check.fail').count()).toBe(0);
      const link = step(page, 'authorization').getByRole('link', { name: 'Open the authorization page' });
      const href = new URL((await link.getAttribute('href'))!);
      expect(href.searchParams.get('code_challenge_method')).toBe('S256');
      expect(href.searchParams.get('resource')).toBe(serving.url);
      // The user opens the page in the browser; the development server approves and redirects back.
      const [tab] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
      await tab.waitForLoadState();
      await expect.poll(() => tab.textContent('body')).toMatch(/Authorization received/);
      await tab.close();
      await expect.poll(() => statusOf(page, 'authorization')).toMatch(/done/);
      await expect
        .poll(() => step(page, 'authorization').textContent())
        .toMatch(/the redirect carries the state sent/);
      await expect.poll(() => step(page, 'authorization').textContent()).toMatch(/iss .* is the issuer/);

      await nextStep(page, 'token');
      await expect.poll(() => step(page, 'token').textContent()).toMatch(/aud .* names this server/);
      await nextStep(page, 'refresh');
      await nextStep(page, 'authorized-request');
      await expect
        .poll(() => step(page, 'authorized-request').textContent())
        .toMatch(/the server accepts the token \(HTTP 200\)/);
      expect(await page.locator('.check.fail').count()).toBe(0);
      // Secrets are shortened in what the page shows.
      const access = await step(page, 'token').locator('details').first().textContent();
      expect(access).toMatch(/"access_token": "[^"]{8}… \(\d+ chars\)"/);
      expect(access).toMatch(/code_verifier=[^&]{8}… \(43 chars\)/);

      await page.getByRole('button', { name: 'Connect with this token' }).click();
      await page.getByRole('button', { name: 'Connect', exact: true }).click();
      await expect
        .poll(() => page.getByTestId('status').textContent(), { timeout: 20_000 })
        .toMatch(/Connected to .* \(with the OAuth debugger’s token\)/);
      await page.getByRole('tab', { name: 'Tools' }).click();
      await expect.poll(() => page.locator('.list').textContent()).toMatch(/whoami/);
    } finally {
      await page.close();
    }
  });

  it('registers with the inspector’s own metadata document, then steps up to notes:write', async () => {
    const page = await browser.newPage();
    const openAuthorization = async (name: string) => {
      const link = step(page, name).getByRole('link', { name: 'Open the authorization page' });
      const [tab] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
      await tab.waitForLoadState();
      await expect.poll(() => tab.textContent('body')).toMatch(/Authorization received/);
      await tab.close();
    };
    try {
      await page.goto(backend.url);
      await page.getByRole('tab', { name: 'OAuth' }).click();
      await page.getByLabel('Registration').selectOption('cimd');
      await page.getByLabel('Step-up: a tool').fill('add-note');
      await page.getByLabel('Step-up: its arguments').fill('{"text":"from the browser"}');
      await page.getByRole('button', { name: 'Start over' }).click();
      for (const name of ['challenge', 'resource-metadata', 'authorization-server-metadata'])
        await nextStep(page, name);
      await nextStep(page, 'registration');
      const registration = (await step(page, 'registration').textContent()) ?? '';
      expect(registration).toMatch(/client_id_metadata_document_supported: true/);
      expect(registration).toMatch(
        /client_id "http:\/\/127\.0\.0\.1:\d+\/oauth\/client-metadata\.json" equals the document URL exactly/,
      );
      expect(registration).toMatch(/is not https \(the spec says MUST\)/);
      expect(registration).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/oauth\/client-metadata\.json → 200/);
      await nextStep(page, 'authorization', /waiting/);
      // The development server fetches the inspector's document itself, then approves.
      await openAuthorization('authorization');
      await expect.poll(() => statusOf(page, 'authorization')).toMatch(/done/);
      for (const name of ['token', 'refresh', 'authorized-request']) await nextStep(page, name);

      // Step-up: the first token (notes:read) does not cover add-note.
      await nextStep(page, 'step-up', /waiting/);
      const stepUp = () => step(page, 'step-up').textContent();
      await expect.poll(stepUp).toMatch(/WWW-Authenticate: Bearer error="insufficient_scope"/);
      await expect.poll(stepUp).toMatch(/re-authorization asks for scope="[^"]*notes:write/);
      await openAuthorization('step-up');
      await expect.poll(() => statusOf(page, 'step-up')).toMatch(/pending/);
      await nextStep(page, 'step-up');
      await expect.poll(stepUp).toMatch(/the call is accepted with the stepped-up token \(HTTP 200\)/);
      expect(await page.locator('.check.fail').count()).toBe(0);
    } finally {
      await page.close();
    }
  });

  it('an unknown pre-registered client gets no code, and a forged redirect changes nothing', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(backend.url);
      await page.getByRole('tab', { name: 'OAuth' }).click();
      await page.getByLabel('Pre-registered client id').fill('nobody-registered-me');
      await page.getByRole('button', { name: 'Start over' }).click();
      for (const name of ['challenge', 'resource-metadata', 'authorization-server-metadata', 'registration'])
        await nextStep(page, name);
      await nextStep(page, 'authorization', /waiting/);
      const link = step(page, 'authorization').getByRole('link', { name: 'Open the authorization page' });
      const [tab] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
      await tab.waitForLoadState();
      // The authorization server refuses an unknown client itself (no redirect to an unverified URI).
      await expect.poll(() => tab.textContent('body')).not.toMatch(/Authorization received/);
      await tab.close();
      expect(await statusOf(page, 'authorization')).toMatch(/waiting/);
      // A forged redirect with another state changes nothing.
      const forged = await fetch(`${backend.origin}/oauth/callback?code=x&state=forged`);
      expect(forged.status).toBe(400);
      expect(await statusOf(page, 'authorization')).toMatch(/waiting/);
    } finally {
      await page.close();
    }
  });
});
