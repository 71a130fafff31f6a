import { describeListenAddress } from './listen-address';

describe('describeListenAddress', () => {
  it.each([
    [{ address: '127.0.0.1', family: 'IPv4', port: 8666 }, 'http://127.0.0.1:8666', 'http://127.0.0.1:8666'],
    [{ address: '10.1.2.3', family: 'IPv4', port: 6666 }, 'http://10.1.2.3:6666', 'http://10.1.2.3:6666'],
    [{ address: '::1', family: 'IPv6', port: 8666 }, 'http://[::1]:8666', 'http://[::1]:8666'],
    [{ address: '0.0.0.0', family: 'IPv4', port: 8666 }, 'every IPv4 interface (0.0.0.0:8666)', 'http://127.0.0.1:8666'],
    [{ address: '::', family: 'IPv6', port: 8666 }, 'every interface ([::]:8666)', 'http://[::1]:8666'],
  ])('%j is %s, reached at %s', (address, bound, url) => {
    expect(describeListenAddress(address)).toEqual({ bound, url });
  });
});
