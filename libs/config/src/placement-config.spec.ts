import { ConfigError } from './config-error';
import { loadLedgerConfig } from './ledger-config';
import { loadPlacementConfig } from './placement-config';

describe('loadPlacementConfig', () => {
  it('is off (no URL) by default, compares every 5 s, 4 hosts at once, and waits for Nova to create compute nodes', () => {
    expect(loadLedgerConfig({}).placement).toEqual({ resyncSeconds: 5, concurrency: 4, createComputeNodes: false, timeoutMs: 30_000 });
  });

  it('reads every setting', () => {
    expect(
      loadPlacementConfig({
        LEDGER_PLACEMENT_URL: 'http://placement:8778/',
        LEDGER_PLACEMENT_TOKEN: 'service-token',
        LEDGER_PLACEMENT_RESYNC_SECONDS: '60',
        LEDGER_PLACEMENT_CONCURRENCY: '32',
        LEDGER_PLACEMENT_CREATE_COMPUTE_NODES: 'true',
        LEDGER_PLACEMENT_TIMEOUT_MS: '5000',
      }),
    ).toEqual({ endpoint: { via: 'settings', url: 'http://placement:8778', token: 'service-token' }, resyncSeconds: 60, concurrency: 32, createComputeNodes: true, timeoutMs: 5000 });
  });

  it('sends `admin` (what noauth2 accepts) when LEDGER_PLACEMENT_TOKEN is unset', () => {
    expect(loadPlacementConfig({ LEDGER_PLACEMENT_URL: 'http://placement:8778' }).endpoint).toEqual({ via: 'settings', url: 'http://placement:8778', token: 'admin' });
  });

  describe('with LEDGER_KEYSTONE_URL set', () => {
    const keystone = { LEDGER_KEYSTONE_URL: 'http://keystone:5000/v3', LEDGER_KEYSTONE_USERNAME: 'ledger', LEDGER_KEYSTONE_PASSWORD: 'pw' };

    it("is on, at the catalog's placement endpoint with the ledger's Keystone token", () => {
      expect(loadLedgerConfig(keystone).placement.endpoint).toEqual({ via: 'keystone', serviceType: 'placement' });
    });

    it('goes to LEDGER_PLACEMENT_URL when it is set, still with the Keystone token (LEDGER_PLACEMENT_TOKEN is not used)', () => {
      const config = loadLedgerConfig({ ...keystone, LEDGER_PLACEMENT_URL: 'http://placement:8778/', LEDGER_PLACEMENT_TOKEN: 'ignored' });
      expect(config.placement.endpoint).toEqual({ via: 'keystone', serviceType: 'placement', url: 'http://placement:8778' });
    });
  });

  it.each([
    [{ LEDGER_PLACEMENT_URL: 'placement:8778' }, 'LEDGER_PLACEMENT_URL'],
    [{ LEDGER_PLACEMENT_RESYNC_SECONDS: '0' }, 'LEDGER_PLACEMENT_RESYNC_SECONDS'],
    [{ LEDGER_PLACEMENT_CONCURRENCY: 'many' }, 'LEDGER_PLACEMENT_CONCURRENCY'],
    [{ LEDGER_PLACEMENT_CREATE_COMPUTE_NODES: 'perhaps' }, 'LEDGER_PLACEMENT_CREATE_COMPUTE_NODES'],
  ])('refuses %j naming %s', (env, setting) => {
    expect(() => loadPlacementConfig(env)).toThrow(ConfigError);
    expect(() => loadPlacementConfig(env)).toThrow(setting);
  });
});
