import { Module } from '@nestjs/common';
import { AUTH_OPTIONS } from '@ledger/auth';
import { ConsistencyService } from '../http/consistency.service';

/** What the /graphql route needs before any resolver runs: the auth options (global) and the wait for a position. */
@Module({ providers: [ConsistencyService], exports: [ConsistencyService] })
export class GraphqlRequestModule {
  static readonly dependencies = [AUTH_OPTIONS, ConsistencyService];
}
