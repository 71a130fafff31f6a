/** The real Chromium the console's browser tests and benchmark drive (Debian's `chromium`, through playwright-core). */
export const chromiumPath = (): string => process.env.LEDGER_TEST_CHROMIUM ?? '/usr/bin/chromium';
