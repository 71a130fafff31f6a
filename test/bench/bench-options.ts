import { Command, InvalidArgumentError } from 'commander';

export const STORES = ['sqlite', 'postgres'] as const;
export type StoreName = (typeof STORES)[number];

export interface BenchOptions {
  readonly out: string;
  readonly stores: readonly StoreName[];
  /** Record names to measure (plus the ceilings they are compared with); undefined: all. */
  readonly only: readonly string[] | undefined;
  readonly quick: boolean;
  readonly postgresUrl: string;
}

export const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';

/** The PostgreSQL the benchmarks use (the postgres pass, and services that keep their data there, such as Keystone). */
export const benchPostgresUrl = (env: NodeJS.ProcessEnv = process.env): string => env.LEDGER_BENCH_POSTGRES_URL || DEFAULT_POSTGRES_URL;

const list = (value: string): string[] =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);

function storeList(value: string): StoreName[] {
  const stores = list(value);
  const unknown = stores.filter((store) => !(STORES as readonly string[]).includes(store));
  if (unknown.length > 0 || stores.length === 0) {
    throw new InvalidArgumentError(`expected a comma-separated subset of ${STORES.join(',')}`);
  }
  return stores as StoreName[];
}

/** Parses `npm run bench -- …` arguments; exits with usage on a bad one. */
export function parseBenchOptions(argv: readonly string[], env: NodeJS.ProcessEnv): BenchOptions {
  const program = new Command('bench')
    .description('Event store and projection benchmarks, each compared with a ceiling measured on the same engine in the same run.')
    .requiredOption('--out <file>', 'JSON file to write the records to (parent directories are created)')
    .option('--stores <list>', `stores to measure (default ${STORES.join(',')})`, storeList, [...STORES])
    .option('--only <names>', 'record names to measure, comma-separated (`name*` for a prefix); the ceilings they need are measured too', list)
    .option('--quick', 'small sizes, for a smoke check', false)
    .addHelpText('after', `\nPostgreSQL: LEDGER_BENCH_POSTGRES_URL (default ${DEFAULT_POSTGRES_URL}); skipped with a message when unreachable.`)
    .parse(argv, { from: 'user' });
  const options = program.opts<{ out: string; stores: StoreName[]; only?: string[]; quick: boolean }>();
  return {
    out: options.out,
    stores: [...new Set(options.stores)],
    only: options.only,
    quick: options.quick,
    postgresUrl: benchPostgresUrl(env),
  };
}
