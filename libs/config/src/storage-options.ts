import type { LedgerConfig } from './ledger-config';
import { dataFiles } from './data-files';

/** Where events live, in the shape `openEventStore` takes. */
export type EventStoreOptions =
  | { readonly kind: 'sqlite'; readonly file: string }
  | { readonly kind: 'postgres'; readonly connectionString: string; readonly schema?: string }
  | { readonly kind: 'esdb'; readonly connectionString: string };

/** Where read models and checkpoints live. */
export type ReadModelOptions =
  | { readonly kind: 'sqlite'; readonly file: string }
  | { readonly kind: 'postgres'; readonly connectionString: string; readonly schema?: string };

export function eventStoreOptions(config: LedgerConfig): EventStoreOptions {
  switch (config.store) {
    case 'postgres':
      return { kind: 'postgres', connectionString: config.postgresUrl as string, schema: config.postgresSchema };
    case 'esdb':
      return { kind: 'esdb', connectionString: config.esdbConnectionString as string };
    default:
      return { kind: 'sqlite', file: dataFiles(config).events };
  }
}

export function readModelOptions(config: LedgerConfig): ReadModelOptions {
  return config.readModels === 'postgres'
    ? { kind: 'postgres', connectionString: config.postgresUrl as string, schema: config.postgresSchema }
    : { kind: 'sqlite', file: dataFiles(config).readModels };
}
