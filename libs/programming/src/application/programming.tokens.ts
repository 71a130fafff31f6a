/** Nest token of the programming context's command runners (ProgrammingCommands). */
export const PROGRAMMING_COMMANDS = Symbol('PROGRAMMING_COMMANDS');
