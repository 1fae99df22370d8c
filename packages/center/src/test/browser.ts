/**
 * The headless Chromium of the center's end-to-end tests: Debian's `chromium` (installed by `.ci/run`), driven by
 * playwright-core, with nothing that reaches the network on its own.
 */
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

export const CHROMIUM = '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    timeout: 60_000,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** One Chromium for the test file that calls this (launched before its tests, closed after): the getter. */
export function chromiumForFile(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (browser === undefined) throw new Error('Chromium is not running (the file beforeAll failed)');
    return browser;
  };
}
