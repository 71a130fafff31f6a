// The allocation context's Nest entry (@ledger/allocation/nest): its module and what the ledger wires with Nest. The
// Nest-free face is ./index (@ledger/allocation).
export * from './application/allocation.module';
export * from './application/arqs/arq-store';
export * from './application/arqs/arq-holds';
export * from './application/arqs/arq-holds.reactor';
export * from './application/arqs/bind-arqs/bind-arqs.use-case';
