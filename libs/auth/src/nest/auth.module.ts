import { type DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { KeystoneSession } from '../keystone/keystone-session';
import { AuthGuard } from './auth.guard';
import { AUTH_OPTIONS, type AuthOptions } from './auth.options';

/** The ledger's own Keystone session (or null when LEDGER_KEYSTONE_URL is unset), for whatever calls other OpenStack services. */
export const KEYSTONE_SESSION = Symbol('KEYSTONE_SESSION');

/** Installs the AuthGuard on every route of the app, and shares the ledger's Keystone session. */
@Module({})
export class AuthModule {
  static forRoot(options: AuthOptions, keystoneSession: KeystoneSession | null = null): DynamicModule {
    return {
      module: AuthModule,
      global: true,
      providers: [
        { provide: AUTH_OPTIONS, useValue: options },
        { provide: KEYSTONE_SESSION, useValue: keystoneSession },
        { provide: APP_GUARD, useClass: AuthGuard },
      ],
      exports: [AUTH_OPTIONS, KEYSTONE_SESSION],
    };
  }
}
