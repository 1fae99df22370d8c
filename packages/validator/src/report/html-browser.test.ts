/**
 * The HTML report in a real browser (Debian's Chromium, driven by playwright-core): the filters of the page —
 * severity, revision, text, grouping by rule — show and hide the findings as they say, with no network.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../checks/index.js';
import type { Outcome } from '../outcomes.js';
import { renderHtml } from './files.js';
import { revisionReport, type ValidationReport } from './model.js';

const CHROMIUM = '/usr/bin/chromium';

const fail = (check: string, message: string): Outcome => ({
  check,
  status: 'fail',
  message,
  evidence: [
    { label: 'exchange', sent: '{"jsonrpc":"2.0","id":1}', received: '<img src=x onerror=alert(1)>' },
  ],
});

function report(): ValidationReport {
  // A MUST defect in 2025-11-25 only, a robustness finding in both revisions, a SHOULD warning in 2025-06-18.
  const newer = revisionReport(
    '2025-11-25',
    [fail('lifecycle.initialize-result', 'no result'), fail('jsonrpc.parse-error', 'no error response')],
    { transport: 'stdio', capabilities: () => true },
  );
  const older = revisionReport(
    '2025-06-18',
    [
      fail('jsonrpc.parse-error', 'no error response'),
      fail('pagination.invalid-cursor', 'forged cursor accepted'),
    ],
    { transport: 'stdio', capabilities: () => true },
  );
  return {
    tool: { name: 'mcpengine validate', version: '0.1.0' },
    target: 'node server.js',
    transport: 'stdio',
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1000,
    revisions: [newer, older],
    notes: [],
    exitCode: 1,
  };
}

let browser: Browser;
let page: Page;
const requests: string[] = [];

beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
  page = await browser.newPage();
  page.on('request', (request) => requests.push(request.url()));
  page.on('dialog', (dialog) => {
    throw new Error(`the page ran injected script: ${dialog.message()}`);
  });
  await page.setContent(renderHtml(report()), { waitUntil: 'load' });
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

/** The checks of the findings shown in the root-cause view. */
async function shown(): Promise<string[]> {
  return page.$$eval('#view-cause article.finding:not(.hidden) h3 code', (codes) =>
    codes.map((code) => code.textContent ?? ''),
  );
}

describe('the HTML report in Chromium', () => {
  it('shows every finding at first, one card per root cause, and fetches nothing', async () => {
    expect((await shown()).sort()).toEqual([
      'jsonrpc.parse-error',
      'lifecycle.initialize-result',
      'pagination.invalid-cursor',
    ]);
    expect(await page.textContent('#f-count')).toBe('3 finding(s) shown');
    expect(requests.filter((url) => !url.startsWith('about:') && !url.startsWith('data:'))).toEqual([]);
  });

  it('filters by severity, revision and text, and groups by rule', async () => {
    await page.uncheck('#f-severity input[value="ROBUST"]');
    expect((await shown()).sort()).toEqual(['lifecycle.initialize-result', 'pagination.invalid-cursor']);
    await page.uncheck('#f-revision input[value="2025-11-25"]');
    expect(await shown()).toEqual(['pagination.invalid-cursor']);
    // The MUST section has nothing left to show: its heading goes too.
    expect(await page.isVisible('section.group[data-group="MUST"]')).toBe(false);
    await page.check('#f-severity input[value="ROBUST"]');
    await page.check('#f-revision input[value="2025-11-25"]');
    await page.fill('#f-text', 'FORGED');
    expect(await shown()).toEqual(['pagination.invalid-cursor']);
    await page.fill('#f-text', '');
    expect((await shown()).length).toBe(3);
    await page.check('input[name="view"][value="rule"]');
    expect(await page.isVisible('#view-cause')).toBe(false);
    const rules = await page.$$eval('#view-rule article.rule:not(.hidden)', (items) => items.length);
    expect(rules).toBeGreaterThanOrEqual(3);
    // Escaped, not run: the evidence is text.
    expect(await page.$$('img')).toEqual([]);
  });
});
