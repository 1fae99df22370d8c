/**
 * The client-side screens in headless Chromium against the everything server (stdio, 2026-07-28): roots given by
 * the user and asked for in a multi-round-trip request (the rounds shown in the timeline), a task-augmented call
 * followed to its result, a call cancelled from the page, log messages at a level the user picks, and completion
 * of prompt arguments and resource template variables.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../test/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackend, type RunningBackend } from './backend.js';

const ROOT = resolve(import.meta.dirname, '../../../..');
const SERVER = join(ROOT, 'servers/everything/dist/main.js');
const ASSETS = join(ROOT, 'packages/inspector/dist/ui');

let browser: Browser;
let backend: RunningBackend;
let page: Page;

beforeAll(async () => {
  if (!existsSync(join(ASSETS, 'app.js'))) throw new Error('build the UI first: npm run build');
  browser = await launchChromium();
  backend = await startBackend({
    target: { kind: 'stdio', command: process.execPath, args: [SERVER] },
    assetsDir: ASSETS,
  });
  page = await browser.newPage();
  await page.goto(backend.url);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await page
    .getByTestId('status')
    .filter({ hasText: /Connected to mcpengine-everything at 2026-07-28/ })
    .waitFor({ timeout: 20_000 });
}, 60_000);

afterAll(async () => {
  await page?.close();
  await backend?.close();
  await browser?.close();
});

async function pickTool(name: string): Promise<void> {
  await page.getByRole('tab', { name: 'Tools' }).click();
  await page.getByRole('searchbox', { name: 'Search tools' }).fill(name);
  await page.getByRole('button', { name, exact: true }).click();
}

describe('the client-side screens', () => {
  it('answers roots/list with the roots the user gave, in a second round shown in the timeline', async () => {
    await page.getByRole('tab', { name: 'Roots' }).click();
    await page.getByLabel('Root URI').fill('http://not-a-file');
    await page.getByRole('button', { name: 'Add root' }).click();
    await expect.poll(() => page.getByRole('alert').last().textContent()).toMatch(/file:\/\/ URI/);
    await page.getByLabel('Root URI').fill('file:///tmp/project');
    await page.getByLabel('Root name').fill('project');
    await page.getByRole('button', { name: 'Add root' }).click();
    await expect
      .poll(() => page.getByRole('list', { name: 'Roots' }).textContent())
      .toMatch(/file:\/\/\/tmp\/project project/);

    await pickTool('test_input_required_result_list_roots');
    await page.getByRole('button', { name: 'Call tool' }).click();
    await expect
      .poll(() => page.getByTestId('result').textContent())
      .toMatch(/Roots: file:\/\/\/tmp\/project/);

    await page.getByRole('tab', { name: 'Timeline' }).click();
    const timeline = page.getByRole('list', { name: 'Timeline entries' });
    await page.getByRole('searchbox', { name: 'Filter the timeline' }).fill('tools/call');
    await expect
      .poll(() => timeline.textContent())
      .toMatch(/← tools\/call: input required — client_roots \(roots\/list\)/);
    await expect
      .poll(() => timeline.textContent())
      .toMatch(/→ tools\/call — next round, answering client_roots/);
  });

  it('runs a tool as a task and waits for its result', async () => {
    await pickTool('slow_compute');
    await page.locator('[id="args.seconds"]').fill('1');
    await page.getByRole('checkbox', { name: /Run as a task/ }).check();
    await page.getByRole('button', { name: 'Call tool' }).click();
    await expect.poll(() => page.getByTestId('task-status').textContent()).toMatch(/Status: working/);
    await page.getByRole('button', { name: 'Wait for the result' }).click();
    await expect.poll(() => page.getByTestId('result').textContent()).toMatch(/Computed result in 1s/);
    await expect.poll(() => page.getByTestId('task-status').textContent()).toMatch(/Status: completed/);
  });

  it('cancels a call that waits on a sampling request', async () => {
    await pickTool('test_sampling');
    await page.locator('[id="args.prompt"]').fill('Never answered');
    await page.getByRole('button', { name: 'Call tool' }).click();
    const sampling = page.getByRole('group', { name: 'Sampling request' });
    await expect.poll(() => sampling.count()).toBe(1);
    await page.getByRole('button', { name: 'Cancel call' }).click();
    await expect.poll(() => page.getByTestId('result').textContent()).toMatch(/cancelled/);
    await expect.poll(() => sampling.count()).toBe(0);
    await expect.poll(() => page.getByRole('button', { name: 'Call tool' }).isEnabled()).toBe(true);
  });

  it('shows log messages once the user picks a level', async () => {
    await page.getByRole('tab', { name: 'Logs' }).click();
    await page.getByLabel('Log level').selectOption('debug');
    await expect
      .poll(() => page.getByTestId('status').textContent(), { timeout: 20_000 })
      .toMatch(/Connected to mcpengine-everything/);
    await pickTool('test_tool_with_logging');
    await page.getByRole('button', { name: 'Call tool' }).click();
    await expect.poll(() => page.getByTestId('result').textContent()).toMatch(/executed successfully/);
    await page.getByRole('tab', { name: 'Logs' }).click();
    await expect
      .poll(() => page.getByRole('list', { name: 'Notifications' }).textContent())
      .toMatch(
        /\[info\].*Tool execution started.*\[info\].*Tool processing data.*\[info\].*Tool execution completed/,
      );
  });

  it('completes prompt arguments and template variables, and reads the expanded template', async () => {
    await page.getByRole('tab', { name: 'Prompts' }).click();
    await page.getByRole('searchbox', { name: 'Search prompts' }).fill('test_prompt_with_arguments');
    await page.getByRole('button', { name: 'test_prompt_with_arguments', exact: true }).click();
    await page.getByLabel('arg1 *').fill('pa');
    await expect
      .poll(() => page.getByTestId('completions-arg1').textContent())
      .toBe('Suggestions: paris, park, party');
    await page.getByLabel('arg1 *').fill('paris');
    await page.getByLabel('arg2 *').fill('tomorrow');
    await page.getByRole('button', { name: 'Get prompt' }).click();
    await expect
      .poll(() => page.getByTestId('prompt-result').textContent())
      .toMatch(/user:.*arg1='paris', arg2='tomorrow'/);

    await page.getByRole('tab', { name: 'Resources' }).click();
    await page
      .getByRole('list', { name: 'Templates' })
      .getByRole('button', { name: 'test://template/{id}/data' })
      .click();
    const form = page.getByRole('group', { name: 'Template test://template/{id}/data' });
    await form.getByLabel('id').fill('4');
    await expect.poll(() => form.getByTestId('completions-id').textContent()).toBe('Suggestions: 42');
    await form.getByLabel('id').fill('42');
    await expect.poll(() => form.getByTestId('expanded-uri').textContent()).toBe('test://template/42/data');
    await form.getByRole('button', { name: 'Read' }).click();
    await expect.poll(() => page.locator('.resource').textContent()).toMatch(/Data for ID: 42/);
  });

  it('renders server markdown on request, sanitised: markup stays text, only http(s) links', async () => {
    await pickTool('echo');
    await page
      .locator('[id="args.text"]')
      .fill(
        '# Title\n\n**bold** [bad](javascript:alert(1)) [good](https://example.com) <img src=x onerror=alert(1)>',
      );
    await page.getByRole('button', { name: 'Call tool' }).click();
    const result = page.getByTestId('result');
    await expect.poll(() => result.textContent()).toMatch(/# Title/);
    await result.getByRole('button', { name: 'Render as markdown' }).click();
    await expect.poll(() => result.getByRole('heading', { name: 'Title' }).count()).toBe(1);
    expect(await result.locator('strong').textContent()).toBe('bold');
    expect(await result.getByRole('link').count()).toBe(1);
    expect(await result.getByRole('link').getAttribute('href')).toBe('https://example.com');
    expect(await result.getByRole('link').getAttribute('rel')).toBe('noopener noreferrer');
    expect(await result.locator('img, script').count()).toBe(0);
    expect(await result.textContent()).toMatch(
      /bad \(javascript:alert\(1\)\).*<img src=x onerror=alert\(1\)>/,
    );
  });

  it('listens for list changes with subscriptions/listen and shows the notifications', async () => {
    await page.getByRole('tab', { name: 'Logs' }).click();
    await page.getByRole('checkbox', { name: 'Tool list changes' }).check();
    await page.getByRole('button', { name: 'Listen' }).click();
    await expect
      .poll(() => page.getByTestId('listening').textContent())
      .toMatch(/Listening; the server acknowledged \{"toolsListChanged":true\}/);
    await pickTool('test_trigger_tool_change');
    await page.getByRole('button', { name: 'Call tool' }).click();
    await expect.poll(() => page.getByTestId('result').textContent()).toMatch(/test_dynamic_tool/);
    await page.getByRole('tab', { name: 'Logs' }).click();
    await page.getByRole('checkbox', { name: /Log messages only/ }).uncheck();
    await expect
      .poll(() => page.getByRole('list', { name: 'Notifications' }).textContent())
      .toMatch(/notifications\/tools\/list_changed/);
    await page.getByRole('button', { name: 'Stop listening' }).click();
    await expect.poll(() => page.getByTestId('listening').textContent()).toBe('Not listening');
  });
});
