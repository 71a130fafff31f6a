import { type DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuthGuard } from './auth.guard';
import { AUTH_OPTIONS, type AuthOptions } from './auth.options';

/** Installs the AuthGuard on every route of the app. */
@Module({})
export class AuthModule {
  static forRoot(options: AuthOptions): DynamicModule {
    return {
      module: AuthModule,
      global: true,
      providers: [{ provide: AUTH_OPTIONS, useValue: options }, { provide: APP_GUARD, useClass: AuthGuard }],
      exports: [AUTH_OPTIONS],
    };
  }
}
