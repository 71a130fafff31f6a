/**
 * Where a store keeps its log, in a form another thread can open (plain
 * data, no connection): `audit verify` reads ranges of the log in worker
 * threads, each over its own connection (anchoring/parallel-verify.ts).
 */
export type StoreLocation =
  | { readonly kind: 'sqlite'; readonly file: string }
  | { readonly kind: 'postgres'; readonly connectionString: string; readonly schema: string; readonly maxConnections: 1 };
