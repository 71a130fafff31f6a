// The quota context's Nest entry (@ledger/quota/nest): its module and what the ledger wires with Nest. The
// Nest-free face is ./index (@ledger/quota).
export * from './application/quota.module';
