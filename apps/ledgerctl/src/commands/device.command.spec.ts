import type { DeviceView } from '@ledger/projections/inventory';
import { formatDevice, formatDeviceTable } from './device.command';

const gpu = {
  uuid: '7fab1ddf-16bd-573b-9763-953726001fad',
  hostname: 'compute-1',
  type: 'GPU',
  model: 'NVIDIA A100 80GB PCIe',
  pciAddress: '0000:3b:00.0',
  status: 'enabled',
  disabledReason: null,
  health: 'ok',
  healthReason: null,
  cleanState: 'clean-failed',
  cleanReason: 'simulated clean failure',
  dirtyHandles: { '1a2b3c4d-0000-5000-8000-000000000001': 'clean-failed' },
} as unknown as DeviceView;

describe('ledgerctl device', () => {
  it('lists devices with their clean state beside maintenance and health', () => {
    const table = formatDeviceTable([gpu, { ...gpu, uuid: 'b', cleanState: 'clean', cleanReason: null, dirtyHandles: {} }]);
    expect(table).toContain('CLEAN');
    expect(table).toContain('clean-failed: simulated clean failure');
    expect(formatDeviceTable([])).toBe('no devices\n');
  });

  it('shows one device with each handle still to clean', () => {
    expect(formatDevice(gpu)).toContain('clean: clean-failed: simulated clean failure\n  handle 1a2b3c4d-0000-5000-8000-000000000001: clean-failed\n');
  });
});
