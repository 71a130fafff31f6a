/**
 * Real services in tests: a suite whose service is missing is skipped with a
 * visible reason on a developer's machine and fails under CI=true. Jest's
 * global setup (test/support/global-setup.ts) probes each service once and
 * leaves the verdict in the environment, because `describe` must be chosen
 * synchronously.
 */
export const inCi = (): boolean => process.env.CI === 'true' || process.env.CI === '1';

/** PostgreSQL used by integration tests (DESIGN.md: 127.0.0.1:5432, trust auth, database `test`). */
export const postgresUrl = (): string => process.env.LEDGER_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Why PostgreSQL cannot be used, or undefined when it can. */
export const postgresUnavailable = (): string | undefined => process.env.LEDGER_TEST_POSTGRES_UNAVAILABLE || undefined;

/** Why the real `openstack accelerator` CLI (Debian's python3-openstackclient + python3-cyborgclient) cannot be used, or undefined when it can. */
export const openstackClientUnavailable = (): string | undefined => process.env.LEDGER_TEST_OPENSTACK_CLIENT_UNAVAILABLE || undefined;

export { ansiblePlaybookPath } from './ansible-path';

/** Why `ansible-playbook` cannot be used, or undefined when it can. */
export const ansibleUnavailable = (): string | undefined => process.env.LEDGER_TEST_ANSIBLE_UNAVAILABLE || undefined;

/** Why Chromium (test/support/chromium-path.ts) cannot be used, or undefined when it can. */
export const chromiumUnavailable = (): string | undefined => process.env.LEDGER_TEST_CHROMIUM_UNAVAILABLE || undefined;

/**
 * Jest's `describe` when the service is there; otherwise `describe.skip`
 * after printing why — or, under CI, a suite whose one test fails with the reason.
 */
export function describeWithService(service: string, unavailableReason: string | undefined): jest.Describe {
  if (unavailableReason === undefined) return describe;
  if (inCi()) {
    return ((name: string) =>
      describe(name, () => {
        it(`needs ${service}`, () => {
          throw new Error(`${service} is required under CI: ${unavailableReason}`);
        });
      })) as unknown as jest.Describe;
  }
  process.stderr.write(`\n[skip] ${service}: ${unavailableReason}\n`);
  return describe.skip;
}

/** The real Placement that test/support/global-setup.ts started for this run (test/support/placement-service.ts). */
export const placementUrl = (): string => process.env.LEDGER_TEST_PLACEMENT_URL ?? '';

/** Why the run's Placement cannot be used, or undefined when it can. */
export const placementUnavailable = (): string | undefined =>
  process.env.LEDGER_TEST_PLACEMENT_URL ? undefined : process.env.LEDGER_TEST_PLACEMENT_UNAVAILABLE || 'LEDGER_TEST_PLACEMENT_URL is not set (test/support/global-setup.ts starts it)';
