import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ReportedDevice } from '@ledger/inventory';
import { hostShape } from './fleet-shape';
import { CachedDiscovery, FleetHost } from './fleet-host';
import { FleetStats } from './fleet-stats';
import { RequestLimiter } from './request-limiter';
import { rotated } from './simulated-fleet';

const silent = { log: () => undefined, warn: () => undefined, error: () => undefined };
const picture = (fingerprint: string) => ({ devices: [], fingerprint });

describe('CachedDiscovery', () => {
  it('discovers once, and again only after forget', async () => {
    const discover = jest.fn().mockResolvedValueOnce(picture('a')).mockResolvedValueOnce(picture('b'));
    const cached = new CachedDiscovery({ discover });

    expect((await cached.discover()).fingerprint).toBe('a');
    expect((await cached.discover()).fingerprint).toBe('a');
    expect(discover).toHaveBeenCalledTimes(1);
    cached.forget();
    expect((await cached.discover()).fingerprint).toBe('b');
    expect(discover).toHaveBeenCalledTimes(2);
  });

  it('does not keep a failed discovery: the next check discovers again', async () => {
    const discover = jest.fn().mockRejectedValueOnce(new Error('sysfs gone')).mockResolvedValueOnce(picture('a'));
    const cached = new CachedDiscovery({ discover });

    await expect(cached.discover()).rejects.toThrow('sysfs gone');
    expect((await cached.discover()).fingerprint).toBe('a');
  });
});

describe('FleetHost', () => {
  let server: Server;
  let url: string;
  const reports: ReportedDevice[][] = [];

  beforeAll(async () => {
    // A ledger that takes every report and heartbeat, keeping the reports' devices.
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        if (request.url?.endsWith('/report')) reports.push((JSON.parse(body) as { devices: ReportedDevice[] }).devices);
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify(request.url?.endsWith('/report') ? { hostname: 'sim-00001', appended: 1, position: reports.length, events: [] } : { jobsWaiting: 0 }));
      });
    }).listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  // The clients' keep-alive connections would hold the server (and Jest's worker) open for seconds after the file.
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('reports the picture it keeps, and a changed one after churn changes a device', async () => {
    const host = new FleetHost(
      { hostname: 'sim-00001', token: 't', ledgerUrls: [url], reportIntervalSeconds: 60, heartbeatIntervalSeconds: 3600, simulated: { ...hostShape(8) } },
      { limiter: new RequestLimiter(4), stats: new FleetStats() },
      silent,
    );
    const fpga = host.deviceAddresses()[0];
    const vfsOf = (devices: ReportedDevice[]) => devices.find((device) => device.pciAddress === fpga)!.deployables[0].attachHandles.length;

    expect(await host.register()).toBe(true);
    expect(await host.register()).toBe(true);
    await expect(host.changeDevice(fpga)).resolves.toMatchObject({ description: 'numVfs 4 → 6' });
    expect(await host.register()).toBe(true);

    expect(reports.map((devices) => devices.length)).toEqual([8, 8, 8]);
    expect(reports.map(vfsOf)).toEqual([4, 4, 6]);
  });
});

describe('rotated', () => {
  it("starts the list at the given replica, so host i's first choice is replica i mod n", () => {
    expect(rotated(['a', 'b', 'c'], 0)).toEqual(['a', 'b', 'c']);
    expect(rotated(['a', 'b', 'c'], 2)).toEqual(['c', 'a', 'b']);
  });
});
