import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@ledger/config';
import { loadAgentConfig, shippedPlaybookDir } from './agent-config';

describe('loadAgentConfig', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'agent-config-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const load = (env: Record<string, string>) => loadAgentConfig({ AGENT_TOKEN: 't0k', ...env }, dir);
  const refusal = (env: Record<string, string>) => {
    try {
      loadAgentConfig(env, dir);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as ConfigError).setting;
    }
    throw new Error('accepted');
  };

  it('runs against a ledger on this machine with the real drivers by default', () => {
    const config = load({ HOME: '/home/op' });
    expect(config).toMatchObject({
      ledgerUrls: ['http://127.0.0.1:8666'],
      token: 't0k',
      hostname: hostname(),
      stateDir: `/home/op/.local/state/ledger-agent/${hostname()}`,
      reportIntervalSeconds: 60,
      heartbeatIntervalSeconds: 15,
      sysfsRoot: '/sys',
      drivers: ['nvidia-gpu', 'intel-fpga', 'xilinx-fpga', 'intel-qat', 'sriov-nic', 'generic-pci'],
      driverSettings: {},
      playbookDir: shippedPlaybookDir(),
      ansiblePlaybook: 'ansible-playbook',
      sandboxRoot: '/',
      warnings: [],
    });
    expect(config.imageServiceUrl).toBeUndefined();
    expect(shippedPlaybookDir()).toMatch(/apps\/agent\/playbooks$/);
  });

  it('reads every setting from the environment', () => {
    writeFileSync(join(dir, 'drivers.json'), JSON.stringify({ 'generic-pci': { allow: [{ vendorId: '1af4' }] } }));
    const config = load({
      LEDGER_URL: 'https://ledger.example:8666/',
      AGENT_HOSTNAME: 'compute-1',
      AGENT_STATE_DIR: 'state',
      AGENT_REPORT_INTERVAL_S: '120',
      AGENT_HEARTBEAT_INTERVAL_S: '5',
      AGENT_SYSFS_ROOT: 'fixtures/sys',
      AGENT_DRIVERS: 'simulated, generic-pci,simulated',
      AGENT_DRIVER_CONFIG: 'drivers.json',
      AGENT_PLAYBOOK_DIR: '/opt/playbooks',
      AGENT_ANSIBLE_PLAYBOOK: '/usr/bin/ansible-playbook',
      AGENT_SANDBOX_ROOT: 'sandbox',
      AGENT_IMAGE_SERVICE_URL: 'http://glance:9292',
      AGENT_IMAGE_SERVICE_TOKEN: 'img',
    });
    expect(config).toEqual({
      ledgerUrls: ['https://ledger.example:8666'],
      token: 't0k',
      hostname: 'compute-1',
      stateDir: join(dir, 'state'),
      reportIntervalSeconds: 120,
      heartbeatIntervalSeconds: 5,
      sysfsRoot: join(dir, 'fixtures/sys'),
      drivers: ['simulated', 'generic-pci'],
      driverSettings: { 'generic-pci': { allow: [{ vendorId: '1af4' }] } },
      playbookDir: '/opt/playbooks',
      ansiblePlaybook: '/usr/bin/ansible-playbook',
      sandboxRoot: join(dir, 'sandbox'),
      imageServiceUrl: 'http://glance:9292',
      imageServiceToken: 'img',
      warnings: [],
    });
  });

  it('finds the ledger as every client does: LEDGER_URL, else PORT on this machine', () => {
    expect(load({ PORT: '9000' }).ledgerUrls).toEqual(['http://127.0.0.1:9000']);
    expect(load({ LEDGER_URL: 'http://ledger:1', PORT: '9000' }).ledgerUrls).toEqual(['http://ledger:1']);
  });

  it('takes several API replicas, comma-separated, in the order given', () => {
    expect(load({ LEDGER_URL: 'http://api-1:8666/, http://api-2:8666' }).ledgerUrls).toEqual(['http://api-1:8666', 'http://api-2:8666']);
  });

  it('still takes the deprecated AGENT_LEDGER_URL, with a warning, unless LEDGER_URL is set', () => {
    expect(load({ AGENT_LEDGER_URL: 'http://old:1/' })).toMatchObject({ ledgerUrls: ['http://old:1'], warnings: ['AGENT_LEDGER_URL is deprecated: rename it LEDGER_URL'] });
    expect(load({ AGENT_LEDGER_URL: 'http://old:1', LEDGER_URL: 'http://new:2' })).toMatchObject({
      ledgerUrls: ['http://new:2'],
      warnings: ['AGENT_LEDGER_URL is deprecated and ignored, since LEDGER_URL is set: remove it'],
    });
  });

  it('keeps its state under XDG_STATE_HOME, one folder per host, never in the working directory', () => {
    expect(load({ XDG_STATE_HOME: '/var/tmp/state', AGENT_HOSTNAME: 'sim-1' }).stateDir).toBe('/var/tmp/state/ledger-agent/sim-1');
  });

  it('takes the token from AGENT_TOKEN_FILE when AGENT_TOKEN is unset', () => {
    writeFileSync(join(dir, 'token'), 'from-file\n');
    expect(loadAgentConfig({ AGENT_TOKEN_FILE: 'token' }, dir).token).toBe('from-file');
  });

  it.each([
    [{}, 'AGENT_TOKEN'],
    [{ AGENT_TOKEN_FILE: 'missing' }, 'AGENT_TOKEN_FILE'],
    [{ AGENT_TOKEN: 't', AGENT_LEDGER_URL: 'ftp://x' }, 'AGENT_LEDGER_URL'],
    [{ AGENT_TOKEN: 't', AGENT_LEDGER_URL: 'not a url' }, 'AGENT_LEDGER_URL'],
    [{ AGENT_TOKEN: 't', LEDGER_URL: 'ledger:8666' }, 'LEDGER_URL'],
    [{ AGENT_TOKEN: 't', LEDGER_URL: 'http://a:1,ledger:8666' }, 'LEDGER_URL'],
    [{ AGENT_TOKEN: 't', LEDGER_URL: 'http://a:1,http://a:1/' }, 'LEDGER_URL'],
    [{ AGENT_TOKEN: 't', LEDGER_URL: ' , ' }, 'LEDGER_URL'],
    [{ AGENT_TOKEN: 't', PORT: 'http' }, 'PORT'],
    [{ AGENT_TOKEN: 't', AGENT_HOSTNAME: 'bad_host' }, 'AGENT_HOSTNAME'],
    [{ AGENT_TOKEN: 't', AGENT_REPORT_INTERVAL_S: '0' }, 'AGENT_REPORT_INTERVAL_S'],
    [{ AGENT_TOKEN: 't', AGENT_HEARTBEAT_INTERVAL_S: '1.5' }, 'AGENT_HEARTBEAT_INTERVAL_S'],
    [{ AGENT_TOKEN: 't', AGENT_DRIVERS: 'nvidia-gpu,amd-gpu' }, 'AGENT_DRIVERS'],
    [{ AGENT_TOKEN: 't', AGENT_DRIVERS: ' , ' }, 'AGENT_DRIVERS'],
    [{ AGENT_TOKEN: 't', AGENT_DRIVER_CONFIG: 'missing.json' }, 'AGENT_DRIVER_CONFIG'],
    [{ AGENT_TOKEN: 't', AGENT_IMAGE_SERVICE_URL: 'glance' }, 'AGENT_IMAGE_SERVICE_URL'],
  ])('refuses %j naming %s', (env, setting) => {
    expect(refusal(env as Record<string, string>)).toBe(setting);
  });

  it('refuses a driver configuration that is not a JSON object of known drivers', () => {
    writeFileSync(join(dir, 'broken.json'), '{');
    writeFileSync(join(dir, 'array.json'), '[]');
    writeFileSync(join(dir, 'unknown.json'), '{"amd-gpu": {}}');
    for (const file of ['broken.json', 'array.json', 'unknown.json']) {
      expect(refusal({ AGENT_TOKEN: 't', AGENT_DRIVER_CONFIG: file })).toBe('AGENT_DRIVER_CONFIG');
    }
  });
});
