import type { Page } from 'playwright-core';
import { launchChromium, signIn } from '../../support/console-browser';
import type { BenchContext } from '../bench-context';
import type { BenchModule, Measurement } from '../bench-module';
import { reportFleet } from '../fixtures/cyborg-v2-fleet';
import { JsonClient } from '../http/json-client';
import { type LedgerServer, onLedgerProcess } from '../http/ledger-server';
import { percentile } from '../measure/statistics';

const HOSTS = 1000;
const ADMIN = { user: 'admin', project: 'admin', roles: ['admin' as const] };
/** Every page of the console; the device page is opened on the fleet's first device. */
const PAGES = ['fleet.html', 'device.html', 'requests.html', 'quota.html', 'workflows.html', 'placement.html', 'audit.html'];
const UNTIMED = 2;

/**
 * Each console page in headless Chromium (playwright-core) against a
 * compiled ledger process with 1,000 hosts reported (test/support/fleet.ts):
 * the time from navigation start to the page's first answer on screen (its
 * `console-ready` mark: HTML, script modules, the API calls and the DOM
 * built). The record is the worst page's median. The fleet page draws its
 * telemetry sparklines after its table; the notes give when they were drawn.
 */
export const consoleBench: BenchModule = {
  records: [{ name: 'console_page_render_ms', unit: 'ms', min: 0 }],
  run: (context) => onLedgerProcess(context, 'console_*', (ledger) => measurePages(context, ledger)),
};

async function measurePages(context: BenchContext, ledger: LedgerServer): Promise<Measurement[]> {
  const admin = ledger.token(ADMIN);
  const setup = new JsonClient(ledger.url, 16);
  const head = await reportFleet(ledger, setup, HOSTS);
  const first = await setup.expect(200, { method: 'GET', path: '/api/v1/devices?limit=1', token: admin, headers: { 'x-ledger-min-position': String(head) } });
  setup.close();
  const device = (JSON.parse(first.text) as { items: { uuid: string }[] }).items[0].uuid;
  const base = ledger.url.toString().replace(/\/$/, '');
  const browser = await launchChromium();
  try {
    const page = await (await browser.newContext()).newPage();
    await signIn(page, base, admin, /\/console\/fleet\.html$/);
    const samples = Math.max(5, Math.round(context.sizes.httpSamples / 50));
    const medians = new Map<string, number>();
    const sparklines: number[] = [];
    for (const name of PAGES) {
      const path = name === 'device.html' ? `${name}?uuid=${device}` : name;
      const times: number[] = [];
      for (let n = 0; n < UNTIMED + samples; n++) {
        const ms = await renderTime(page, `${base}/console/${path}`);
        if (n >= UNTIMED) times.push(ms);
        if (n >= UNTIMED && name === 'fleet.html') sparklines.push(await telemetryTime(page));
      }
      medians.set(name, percentile(times, 50));
    }
    const [worst, value] = [...medians].sort((a, b) => b[1] - a[1])[0];
    const each = [...medians].map(([name, ms]) => `${name.replace('.html', '')} ${ms.toFixed(0)}`).join(', ');
    context.progress(`console: ${HOSTS} hosts; median ms to the first answer on screen: ${each}`);
    const drawn = `the fleet page's 50 hosts' sparklines (one telemetry call per host, after the table) drawn at ${percentile(sparklines, 50).toFixed(0)} ms`;
    context.progress(`console: ${drawn}`);
    return [{ name: 'console_page_render_ms', value, notes: `worst page ${worst}; ${samples} timed loads per page; medians ms: ${each}; ${drawn}` }];
  } finally {
    await browser.close();
  }
}

/** Milliseconds from the fleet page's navigation start to its sparklines drawn (the `console-telemetry` mark). */
async function telemetryTime(page: Page): Promise<number> {
  await page.locator('body[data-telemetry]').waitFor({ state: 'attached' });
  return page.evaluate(() => performance.getEntriesByName('console-telemetry')[0].startTime);
}

/** One navigation: milliseconds from its start to the page's `console-ready` mark. */
async function renderTime(page: Page, url: string): Promise<number> {
  await page.goto(url);
  await page.locator('body[data-ready]').waitFor();
  return page.evaluate(() => performance.getEntriesByName('console-ready')[0].startTime);
}
