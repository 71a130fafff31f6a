// The inventory's reactor to finished jobs (@ledger/inventory/job-facts): apart from the context's public face,
// because it reads the jobs context's events, and the jobs context reads the inventory's face.
export * from './job-facts.reactor';
export * from './device-fact-of-job';
export * from './driver-outcome-of-job';
export * from './clean-jobs.reactor';
export * from './clean-outcome-of-job';
export * from './device-facts-of-results';
