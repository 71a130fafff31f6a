import { parseMicroversion } from './microversion';

describe('parseMicroversion', () => {
  it.each([
    [undefined, '2.0'],
    ['accelerator 2.2', '2.2'],
    ['ACCELERATOR 2.1', '2.1'],
    ['accelerator latest', '2.3'],
    ['2.3', '2.3'],
    ['compute 2.79, accelerator 2.1', '2.1'],
    ['compute 2.79', '2.0'],
    [['compute 2.1', 'accelerator 2.2'], '2.2'],
  ])('%j asks for %s', (header, expected) => {
    const version = parseMicroversion(header);
    expect(`${version.major}.${version.minor}`).toBe(expected);
  });

  it.each(['accelerator 2.4', 'accelerator 3.0', 'accelerator 1.0', 'accelerator two', 'accelerator 2.1 extra', '2.x'])(
    'refuses %j with 406 V2.VERSION_NOT_ACCEPTABLE',
    (header) => {
      expect(() => parseMicroversion(header)).toThrow(expect.objectContaining({ status: 406, code: 'V2.VERSION_NOT_ACCEPTABLE' }));
    },
  );
});
