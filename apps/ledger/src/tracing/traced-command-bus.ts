import { Injectable, type OnModuleInit } from '@nestjs/common';
import { CommandBus, type ICommand } from '@nestjs/cqrs';
import type { CommandContext } from '@ledger/eventstore';
import { inSpan } from './ledger-tracer';

/**
 * A span per command the bus executes (`command <CommandClass>`), made once
 * at the bus rather than in every handler: the bus's `execute` is wrapped at
 * start. Its appends and outside calls are its children.
 */
@Injectable()
export class CommandBusTracing implements OnModuleInit {
  constructor(private readonly bus: CommandBus) {}

  onModuleInit(): void {
    const execute = this.bus.execute.bind(this.bus) as (command: ICommand, ...rest: unknown[]) => Promise<unknown>;
    this.bus.execute = ((command: ICommand, ...rest: unknown[]) => {
      const name = command.constructor.name;
      const correlationId = (command as { context?: Partial<CommandContext> }).context?.correlationId;
      const attributes = { 'ledger.command': name, ...(correlationId ? { 'ledger.correlation_id': correlationId } : {}) };
      return inSpan(`command ${name}`, { attributes }, () => execute(command, ...rest));
    }) as CommandBus['execute'];
  }
}
