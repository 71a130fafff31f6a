// The provisioning context's Nest entry (@ledger/provisioning/nest): its module and what the ledger wires with Nest. The
// Nest-free face is ./index (@ledger/provisioning).
export * from './application/provision-host/provision-host.use-case';
export * from './application/provisioning.module';
