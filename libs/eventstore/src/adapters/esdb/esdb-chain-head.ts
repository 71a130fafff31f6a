import { BACKWARDS, END, type EventStoreDBClient } from '@eventstore/db-client';
import { GENESIS_HASH } from '../../hash-chain/hash-chain';
import { fromEsdbEvent } from './esdb-ledger-metadata';

export interface EsdbChainHead {
  readonly position: number;
  readonly hash: string;
}

/** The last ledger event in `$all` (read backwards, past system events), or the genesis head. */
export async function readEsdbChainHead(client: EventStoreDBClient): Promise<EsdbChainHead> {
  for await (const resolved of client.readAll({ direction: BACKWARDS, fromPosition: END })) {
    const recorded = resolved.event && fromEsdbEvent(resolved.event);
    if (recorded) return { position: recorded.position, hash: recorded.hash };
  }
  return { position: 0, hash: GENESIS_HASH };
}
