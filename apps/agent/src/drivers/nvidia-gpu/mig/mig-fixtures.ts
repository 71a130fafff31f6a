import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The recorded nvidia-smi outputs beside this file (fixtures/README.md says where each came from). */
export const MIG_FIXTURES = join(__dirname, 'fixtures');

export const migFixture = (name: string): string => readFileSync(join(MIG_FIXTURES, name), 'utf8');
