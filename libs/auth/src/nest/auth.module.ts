import { type DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { KeystoneSession } from '../keystone/keystone-session';
import { AuthGuard } from './auth.guard';
import { AUTH_OPTIONS, type AuthOptions, KEYSTONE_SESSION } from './auth.options';

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
