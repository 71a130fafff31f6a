import { type DynamicModule, Inject, Injectable, Logger, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { LedgerConfig, TracingConfig } from '@ledger/config';
import { wrapOutboundRequests } from '@ledger/kernel';
import { outboundSpans } from './outbound-spans';
import { startTracing, type TracingSdk } from './start-tracing';
import { CommandBusTracing } from './traced-command-bus';

const TRACING_SDK = Symbol('TRACING_SDK');

@Injectable()
class TracingLifecycle implements OnModuleInit, OnApplicationShutdown {
  constructor(@Inject(TRACING_SDK) private readonly sdk: TracingSdk) {}

  onModuleInit(): void {
    wrapOutboundRequests(outboundSpans);
  }

  /** Exports the spans still buffered before the process goes. */
  async onApplicationShutdown(): Promise<void> {
    wrapOutboundRequests(undefined);
    await this.sdk.shutdown();
  }
}

/**
 * Imported only when an OTLP endpoint is set (config.tracing): starts the
 * SDK before anything runs, traces the command bus and the requests to
 * Placement and Nova (outbound-spans.ts). The other spans come from what the
 * composition root adds under the same condition: decorators around the
 * event store, the projections, the reactors and the Kafka publisher, the
 * workflow runtime's `aroundEvent`, and the HTTP hooks (create-ledger-app.ts).
 */
@Module({})
export class TracingModule {
  static forRoot(tracing: TracingConfig, config: LedgerConfig): DynamicModule {
    return {
      module: TracingModule,
      providers: [
        {
          provide: TRACING_SDK,
          useFactory: () => {
            const logger = new Logger('Tracing');
            logger.log(`exporting traces to ${tracing.endpoint} as ${tracing.serviceName}, sampler ${tracing.sampler}${tracing.sampler.endsWith('traceidratio') ? ` ${tracing.samplerRatio}` : ''}`);
            return startTracing(tracing, config, (message) => logger.warn(message));
          },
        },
        TracingLifecycle,
        CommandBusTracing,
      ],
    };
  }
}
