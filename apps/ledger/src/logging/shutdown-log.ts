import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';

/** The signals on which Nest's shutdown hooks (`enableShutdownHooks`) close the ledger and that a person sends. */
const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];

/**
 * Says when the ledger starts to stop, and when it has: without it a log
 * ends at its last request, and nobody can tell a clean stop from a kill.
 * A provider of the root module, so its shutdown hook runs after every
 * other module's (the processors and the HTTP server are done by then).
 */
@Injectable()
export class ShutdownLog implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Ledger');
  private readonly stopping = (signal: NodeJS.Signals) => this.logger.log(`${signal}: stopping (requests in flight finish, processors stop at their checkpoints)`);

  onApplicationBootstrap(): void {
    for (const signal of STOP_SIGNALS) process.once(signal, this.stopping);
  }

  onApplicationShutdown(): void {
    for (const signal of STOP_SIGNALS) process.off(signal, this.stopping);
    this.logger.log('stopped');
  }
}
