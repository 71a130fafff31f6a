import type { LedgerCommand } from './ledger-command';

// Nest's CommandBus infers `execute`'s result from its own Command<R>, a class of @nestjs/cqrs; this overload infers it
// from LedgerCommand<R>, which the kernel defines without Nest. Types only: nothing of Nest is loaded from here.
declare module '@nestjs/cqrs' {
  interface CommandBus {
    execute<R>(command: LedgerCommand<R>): Promise<R>;
  }
}
