import type { Page } from 'playwright-core';
import { launchChromium, signIn } from '../../support/console-browser';
import type { BenchContext } from '../bench-context';
import type { BenchModule, Measurement } from '../bench-module';
import { reportFleet } from '../fixtures/cyborg-v2-fleet';
import { JsonClient } from '../http/json-client';
import { type LedgerServer, onLedgerProcess } from '../http/ledger-server';
import { percentile } from '../measure/statistics';

const HOSTS = 10_000;
const ADMIN = { user: 'admin', project: 'admin', roles: ['admin' as const] };
/**
 * The fleet page as an operator filters it: everything, the hosts with an
 * FPGA in service and healthy (every host: a full page of 50), a search
 * by part of a host name (1,000 hosts match), and what needs attention
 * (none: an empty page after a count over the whole fleet).
 */
const FLEET_VIEWS = ['fleet.html', 'fleet.html?type=FPGA&deviceStatus=enabled&health=ok', 'fleet.html?search=compute-04', 'fleet.html?attention=true'];
const UNTIMED = 2;

/**
 * The fleet page of the console in headless Chromium (playwright-core)
 * against a compiled ledger process with 10,000 hosts reported
 * (test/support/fleet.ts): the time from navigation start to the page's
 * first answer on screen (its `console-ready` mark: HTML, script modules,
 * the one GET /api/v1/fleet that counts and pages in SQL, and the DOM
 * built). The record is the slowest view's median; the notes give each
 * view's, and when the page's charts (one history call per host shown,
 * after the table) were drawn.
 */
export const consoleBench: BenchModule = {
  records: [{ name: 'console_page_render_ms', unit: 'ms', min: 0 }],
  run: (context) => onLedgerProcess(context, 'console_*', (ledger) => measurePages(context, ledger)),
};

async function measurePages(context: BenchContext, ledger: LedgerServer): Promise<Measurement[]> {
  const admin = ledger.token(ADMIN);
  const setup = new JsonClient(ledger.url, 16);
  const head = await reportFleet(ledger, setup, HOSTS);
  await setup.expect(200, { method: 'GET', path: '/api/v1/fleet?limit=1', token: admin, headers: { 'x-ledger-min-position': String(head) } });
  setup.close();
  const base = ledger.url.toString().replace(/\/$/, '');
  const browser = await launchChromium();
  try {
    const page = await (await browser.newContext()).newPage();
    await signIn(page, base, admin, /\/console\/fleet\.html$/);
    const samples = Math.max(5, Math.round(context.sizes.httpSamples / 50));
    const medians = new Map<string, number>();
    const charts: number[] = [];
    for (const view of FLEET_VIEWS) {
      const times: number[] = [];
      for (let n = 0; n < UNTIMED + samples; n++) {
        const ms = await renderTime(page, `${base}/console/${view}`);
        if (n >= UNTIMED) times.push(ms);
        if (n >= UNTIMED && view === 'fleet.html') charts.push(await telemetryTime(page));
      }
      medians.set(view.replace('fleet.html', '') || '(no filter)', percentile(times, 50));
    }
    const [worst, value] = [...medians].sort((a, b) => b[1] - a[1])[0];
    const each = [...medians].map(([view, ms]) => `${view} ${ms.toFixed(0)}`).join(', ');
    context.progress(`console: ${HOSTS} hosts; fleet page, median ms to the first answer on screen: ${each}`);
    const drawn = `the unfiltered page's 50 hosts' charts (one history call per host, after the table) drawn at ${percentile(charts, 50).toFixed(0)} ms`;
    context.progress(`console: ${drawn}`);
    return [{ name: 'console_page_render_ms', value, notes: `${HOSTS} hosts; slowest view ${worst}; ${samples} timed loads per view; medians ms: ${each}; ${drawn}` }];
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
