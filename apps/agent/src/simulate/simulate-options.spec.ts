import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommanderError } from 'commander';
import { parseSimulateOptions } from './simulate-options';

describe('parseSimulateOptions', () => {
  let stderr: jest.SpyInstance;
  beforeEach(() => (stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true)));
  afterEach(() => stderr.mockRestore());

  it("defaults to a demo against `npm start`: 8 devices per host, the agent's intervals, no churn", () => {
    expect(parseSimulateOptions(['--hosts', '200'], {}, '/srv/ledger')).toEqual({
      hosts: 200,
      devicesPerHost: 8,
      reportIntervalSeconds: 60,
      heartbeatIntervalSeconds: 15,
      churn: 0,
      ledgerUrls: ['http://127.0.0.1:8666'],
      warnings: [],
      token: undefined,
      dataDir: '/srv/ledger/data',
      concurrency: 32,
      workers: 1,
      durationSeconds: undefined,
      progressSeconds: 5,
      simulated: {},
    });
  });

  it('takes every option, and the ledger and data directory from the environment', () => {
    const fromEnv = parseSimulateOptions([], { LEDGER_URL: 'http://ledger:9000/', LEDGER_DATA_DIR: '/var/lib/ledger' }, '/srv');
    expect([fromEnv.ledgerUrls, fromEnv.dataDir]).toEqual([['http://ledger:9000'], '/var/lib/ledger']);
    expect(parseSimulateOptions([], { PORT: '9001' }).ledgerUrls).toEqual(['http://127.0.0.1:9001']);
    expect(parseSimulateOptions([], { AGENT_LEDGER_URL: 'http://old:1' })).toMatchObject({ ledgerUrls: ['http://old:1'], warnings: ['AGENT_LEDGER_URL is deprecated: rename it LEDGER_URL'] });

    const options = parseSimulateOptions(
      ['--hosts', '10000', '--devices', '4', '--interval', '30', '--heartbeat', '60', '--churn', '0.01', '--ledger', 'https://l.example/',
        '--token', 'T', '--data-dir', 'd', '--concurrency', '64', '--workers', '2', '--duration', '90', '--progress', '2'],
      { LEDGER_URL: 'not even a url' },
      '/srv',
    );
    expect(options).toMatchObject({
      hosts: 10_000,
      devicesPerHost: 4,
      reportIntervalSeconds: 30,
      heartbeatIntervalSeconds: 60,
      churn: 0.01,
      ledgerUrls: ['https://l.example'],
      token: 'T',
      dataDir: '/srv/d',
      concurrency: 64,
      workers: 2,
      durationSeconds: 90,
      progressSeconds: 2,
    });
  });

  it('reads the simulated block of a driver settings file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'simulate-options-'));
    try {
      writeFileSync(join(dir, 'drivers.json'), JSON.stringify({ simulated: { vgpuType: 'nvidia-700', latencyMs: 5 } }));
      writeFileSync(join(dir, 'other.json'), JSON.stringify({ 'nvidia-gpu': {} }));
      expect(parseSimulateOptions(['--driver-config', join(dir, 'drivers.json')], {}).simulated).toEqual({ vgpuType: 'nvidia-700', latencyMs: 5 });
      expect(() => parseSimulateOptions(['--driver-config', join(dir, 'other.json')], {})).toThrow(CommanderError);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    [['--hosts', '0']],
    [['--hosts', 'many']],
    [['--devices', '41']],
    [['--churn', '1.5']],
    [['--churn', '']],
    [['--interval', '0']],
    [['--ledger', 'ftp://ledger']],
    [['--concurrency', '0']],
    [['--workers', '0']],
    [['--workers', '65']],
    [['--unknown']],
  ])('refuses %j, naming the option', (argv) => {
    expect(() => parseSimulateOptions(argv, {})).toThrow(CommanderError);
    expect(stderr.mock.calls.join('')).toMatch(/error: (option|unknown option)/);
  });

  it('refuses a malformed LEDGER_URL, or the deprecated AGENT_LEDGER_URL, by name', () => {
    expect(() => parseSimulateOptions([], { LEDGER_URL: 'not a url' })).toThrow('LEDGER_URL: "not a url" is not a URL');
    expect(() => parseSimulateOptions([], { AGENT_LEDGER_URL: 'not a url' })).toThrow('AGENT_LEDGER_URL');
  });
});
