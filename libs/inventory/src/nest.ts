// The inventory context's Nest entry (@ledger/inventory/nest): its module and what the ledger wires with Nest. The
// Nest-free face is ./index (@ledger/inventory).
export * from './application/inventory.module';
export * from './application/device-commands';
export * from './application/agent-liveness/host-liveness-commands';
export * from './application/host-drivers-commands';
export * from './application/reclaim-partition/reclaim-partition.use-case';
