import { FleetLogger } from './fleet-logger';

describe('FleetLogger', () => {
  it('drops ordinary lines, prints the first few warnings of a period and counts the rest', () => {
    const lines: string[] = [];
    const logger = new FleetLogger((line) => lines.push(line));

    logger.log('discovery: 8 device(s)');
    for (let n = 1; n <= 7; n++) logger.warn(`sim-0000${n}: report: not delivered`);
    logger.error('sim-00009: a loop stopped');
    logger.flush();
    logger.warn('sim-00001: heartbeat: delivered again?');
    logger.flush();

    expect(lines).toEqual([
      ...[1, 2, 3, 4, 5].map((n) => `WARN sim-0000${n}: report: not delivered`),
      '(3 more warning(s) not shown)',
      'WARN sim-00001: heartbeat: delivered again?',
    ]);
  });
});
