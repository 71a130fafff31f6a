import { Inject, Injectable } from '@nestjs/common';
import { type CommandContext, type CommandResult, EVENT_STORE, type EventStore, handleCommand, loadAggregate, StreamLocks } from '@ledger/eventstore';
import { bitstreamStream, SIGNING_KEYS_STREAM } from '../domain/bitstream-id';
import type { BitstreamCommand } from '../domain/bitstream.commands';
import { bitstreamDecider } from '../domain/bitstream.decider';
import type { BitstreamState } from '../domain/bitstream.state';
import { PROGRAMMING_EVENT_SCHEMA_VERSIONS } from '../domain/programming.events';
import type { SigningKeyCommand } from '../domain/signing-keys.commands';
import { signingKeysDecider } from '../domain/signing-keys.decider';
import type { SigningKeysState } from '../domain/signing-keys.state';
import { PROGRAMMING_STREAM_LOCKS } from './programming.tokens';

/** load → decide → append with the expected version, queued per stream in this process, for both aggregates of the context. */
@Injectable()
export class ProgrammingCommandRunner {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PROGRAMMING_STREAM_LOCKS) private readonly locks: StreamLocks,
  ) {}

  bitstream(bitstreamId: string, command: BitstreamCommand, context: CommandContext): Promise<CommandResult<BitstreamState>> {
    return handleCommand(this.store, bitstreamStream(bitstreamId), bitstreamDecider, command, context, {
      locks: this.locks,
      schemaVersions: PROGRAMMING_EVENT_SCHEMA_VERSIONS,
    });
  }

  signingKeys(command: SigningKeyCommand, context: CommandContext): Promise<CommandResult<SigningKeysState>> {
    return handleCommand(this.store, SIGNING_KEYS_STREAM, signingKeysDecider, command, context, {
      locks: this.locks,
      schemaVersions: PROGRAMMING_EVENT_SCHEMA_VERSIONS,
    });
  }

  /** The keys trusted now, read from their stream: a signature is checked against exactly what the log says. */
  async trustedKeys(): Promise<SigningKeysState['trusted']> {
    return (await loadAggregate(this.store, SIGNING_KEYS_STREAM, signingKeysDecider)).state.trusted;
  }
}
