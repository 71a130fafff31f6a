import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { chromiumPath } from './chromium-path';

/**
 * Chromium headless as this kind of machine needs it: no sandbox (containers),
 * and none of the browser's own calls home, which a closed network refuses and
 * which would otherwise stall its connections.
 */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const launchChromium = (): Promise<Browser> => chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });

/** Where the console's screenshots go (git-ignored). */
export const SCREENSHOTS = join(__dirname, '..', '..', 'test-output', 'console');

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** Signs in on the console's first page as a person would, and waits for the page it lands on to show its first answer. */
export async function signIn(page: Page, ledgerUrl: string, token: string, landing: RegExp): Promise<void> {
  await page.goto(`${ledgerUrl}/console/`);
  await page.locator('#token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(landing);
  await page.locator('body[data-ready]').waitFor();
}

/** Opens a console page and waits for its first answer (`body[data-ready]`). */
export async function openPage(page: Page, ledgerUrl: string, path: string): Promise<void> {
  await page.goto(`${ledgerUrl}/console/${path}`);
  await page.locator('body[data-ready]').waitFor();
}
