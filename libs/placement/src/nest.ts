// The placement context's Nest entry (@ledger/placement/nest): its module and what the ledger wires with Nest. The
// Nest-free face is ./index (@ledger/placement).
export * from './application/placement-reconciler.providers';
