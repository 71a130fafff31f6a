/** Nest token of the job aggregates' AggregateCache (the handlers and JobReader share it). */
export const JOB_CACHE = Symbol('JOB_CACHE');

/** Nest token of the job commands' runner (JobCommands). */
export const JOB_COMMANDS = Symbol('JOB_COMMANDS');
