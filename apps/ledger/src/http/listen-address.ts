import type { AddressInfo } from 'node:net';

/** What the start-up log says about the bound address: exactly what was bound, and a URL to open on this machine. */
export interface ListenAddress {
  /** The address and port as bound, e.g. `http://127.0.0.1:8666` or `every IPv4 interface (0.0.0.0:8666)`. */
  readonly bound: string;
  /** A URL that reaches the ledger from this machine. */
  readonly url: string;
}

export function describeListenAddress({ address, port }: AddressInfo): ListenAddress {
  if (address === '0.0.0.0') return { bound: `every IPv4 interface (0.0.0.0:${port})`, url: `http://127.0.0.1:${port}` };
  if (address === '::') return { bound: `every interface ([::]:${port})`, url: `http://[::1]:${port}` };
  const url = address.includes(':') ? `http://[${address}]:${port}` : `http://${address}:${port}`;
  return { bound: url, url };
}
