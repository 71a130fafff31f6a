import type { LoggerService } from '@nestjs/common';
import { Logger as PinoNestLogger, type PinoLogger } from 'nestjs-pino';
import type { Logger } from 'pino';

/**
 * Nest's own start-up narration: a line per module initialised, per
 * controller and per route mapped (over a hundred), and "starting" /
 * "started". The ledger says what a person needs once it listens, so these
 * are debug: `LEDGER_LOG_LEVEL=debug` still shows them.
 */
const NEST_START_UP_CONTEXTS = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication']);
/** A route mapped, as Nest's router and @nestjs/graphql (context GraphQLModule) both say it. */
const MAPPED_ROUTE = /^Mapped \{.*\} route$/;

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
  return new LedgerNestLogger(log as unknown as PinoLogger, {});
}

class LedgerNestLogger extends PinoNestLogger {
  /** Nest passes the context last. */
  override log(message: unknown, ...optionalParams: unknown[]): void {
    const startUpNarration = NEST_START_UP_CONTEXTS.has(String(optionalParams.at(-1))) || MAPPED_ROUTE.test(String(message));
    if (startUpNarration) this.debug(message, ...optionalParams);
    else super.log(message, ...optionalParams);
  }
}
