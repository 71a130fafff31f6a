import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { INVENTORY_EVENT_TYPES } from '@ledger/inventory';
import { generateEventContracts } from './event-contracts';

const ROOT = join(__dirname, '..', '..', '..');

describe('the contracts package', () => {
  const generated = generateEventContracts(ROOT);

  it.each(generated.map((file) => [file.path, file.text]))('%s matches the events it is generated from (regenerate: node scripts/run.js --build libs/contracts/generate/main.js)', (path, text) => {
    expect(readFileSync(join(ROOT, path), 'utf8')).toBe(text);
  });

  it('describes every inventory event the projection handles', () => {
    const schema = JSON.parse(generated.find((file) => file.path.endsWith('inventory.events.schema.json'))!.text) as { definitions: Record<string, unknown> };
    expect(Object.keys(schema.definitions).sort()).toEqual([...INVENTORY_EVENT_TYPES].sort());
  });
});
