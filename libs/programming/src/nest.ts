// The programming context's Nest entry (@ledger/programming/nest): its module and what the ledger wires with Nest. The
// Nest-free face is ./index (@ledger/programming).
export * from './application/programming.module';
