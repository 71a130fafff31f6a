/** Nest token of the StreamLocks every programming handler queues on. */
export const PROGRAMMING_STREAM_LOCKS = Symbol('PROGRAMMING_STREAM_LOCKS');
