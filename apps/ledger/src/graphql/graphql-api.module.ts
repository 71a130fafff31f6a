import { Module } from '@nestjs/common';
import { GraphQLModule } from '@nestjs/graphql';
import { MercuriusDriver, type MercuriusDriverConfig } from '@nestjs/mercurius';
import type { SqlDatabase } from '@ledger/processing';
import { ArqQueries } from '@ledger/projections/arqs';
import { DeviceProfileQueries } from '@ledger/projections/device-profiles';
import { QuotaModule } from '@ledger/quota/nest';
import { WorkflowQueries } from '@ledger/workflows';
import { READ_MODEL_DB } from '../infrastructure/tokens';
import { inventoryQueriesProvider } from '../inventory/inventory-queries.provider';
import { jobQueriesProvider } from '../jobs/job-queries.provider';
import { placementQueriesProvider } from '../placement/placement-queries.provider';
import { placementSyncQueriesProvider } from '../placement/placement-sync-queries.provider';
import { bitstreamQueriesProvider } from '../programming/bitstream-queries.provider';
import { GraphqlRequestModule } from './graphql-request.module';
import { GraphqlAsOf } from './shared/as-of';
import { GRAPHQL_RESOLVERS } from './graphql-resolvers';
import { mercuriusOptions } from './mercurius-options';

/**
 * GraphQL at /graphql on the API's Fastify server (Mercurius, code-first;
 * docs/graphql.md). Its resolvers read through the same query classes as
 * the REST controllers, with the same roles and project filters.
 */
@Module({
  imports: [
    QuotaModule,
    GraphqlRequestModule,
    GraphQLModule.forRootAsync<MercuriusDriverConfig>({
      driver: MercuriusDriver,
      imports: [GraphqlRequestModule],
      inject: GraphqlRequestModule.dependencies,
      useFactory: mercuriusOptions,
    }),
  ],
  providers: [
    ...GRAPHQL_RESOLVERS,
    GraphqlAsOf,
    inventoryQueriesProvider,
    jobQueriesProvider,
    placementQueriesProvider,
    placementSyncQueriesProvider,
    bitstreamQueriesProvider,
    { provide: ArqQueries, inject: [READ_MODEL_DB], useFactory: (db: SqlDatabase) => new ArqQueries(db) },
    { provide: DeviceProfileQueries, inject: [READ_MODEL_DB], useFactory: (db: SqlDatabase) => new DeviceProfileQueries(db) },
    { provide: WorkflowQueries, inject: [READ_MODEL_DB], useFactory: (db: SqlDatabase) => new WorkflowQueries(db) },
  ],
})
export class GraphqlApiModule {}
