import type { LoggerService } from '@nestjs/common';
import { Logger as PinoNestLogger, type PinoLogger } from 'nestjs-pino';
import type { Logger } from 'pino';

/**
 * Nest's logger writing into `log`: every `new Logger('Context').warn(…)`
 * of the ledger becomes a JSON line with `context` set. nestjs-pino's
 * Logger does the mapping of Nest's arguments (context last, an error's
 * stack); it is given the pino logger itself rather than nestjs-pino's
 * PinoLogger, whose root logger is one per process (the first
 * configuration would win for every ledger a test starts) and whose
 * per-request child loggers the ids in `withLogContext` make unnecessary.
 * The two share the methods nestjs-pino's Logger calls.
 */
export function nestLoggerOf(log: Logger): LoggerService {
  return new PinoNestLogger(log as unknown as PinoLogger, {});
}
