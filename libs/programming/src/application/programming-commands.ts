import type { Provider } from '@nestjs/common';
import { type DeciderCommandHandler, deciderCommandHandler, EVENT_STORE, type EventStore, STREAM_LOCKS, type StreamLocks } from '@ledger/eventstore';
import { bitstreamIdOf, bitstreamStream, SIGNING_KEYS_STREAM } from '../domain/bitstream-id';
import type { BitstreamCommand } from '../domain/bitstream.commands';
import { bitstreamDecider } from '../domain/bitstream.decider';
import type { BitstreamState } from '../domain/bitstream.state';
import { type BitstreamEvent, PROGRAMMING_EVENT_SCHEMA_VERSIONS, type SigningKeyEvent } from '../domain/programming.events';
import type { SigningKeyCommand } from '../domain/signing-keys.commands';
import { signingKeysDecider } from '../domain/signing-keys.decider';
import type { SigningKeysState } from '../domain/signing-keys.state';
import { PROGRAMMING_COMMANDS } from './programming.tokens';

/** The command runners of the context's two aggregates: a bitstream's stream, and the one stream of signing keys. */
export interface ProgrammingCommands {
  readonly bitstreams: DeciderCommandHandler<BitstreamCommand, BitstreamState, BitstreamEvent>;
  readonly signingKeys: DeciderCommandHandler<SigningKeyCommand, SigningKeysState, SigningKeyEvent>;
}

export const programmingCommandsProvider: Provider = {
  provide: PROGRAMMING_COMMANDS,
  inject: [EVENT_STORE, STREAM_LOCKS],
  useFactory: (store: EventStore, locks: StreamLocks): ProgrammingCommands => ({
    bitstreams: deciderCommandHandler(store, {
      decider: bitstreamDecider,
      // A bitstream's id is its content's: registering names it by the hash, retiring by the id.
      streamOf: (command) => bitstreamStream(command.type === 'RegisterBitstream' ? bitstreamIdOf(command.sha256) : command.bitstreamId),
      locks,
      schemaVersions: PROGRAMMING_EVENT_SCHEMA_VERSIONS,
    }),
    signingKeys: deciderCommandHandler(store, { decider: signingKeysDecider, streamOf: () => SIGNING_KEYS_STREAM, locks, schemaVersions: PROGRAMMING_EVENT_SCHEMA_VERSIONS }),
  }),
};

/** The keys trusted now, read from their stream: a signature is checked against exactly what the log says. */
export async function trustedKeys(commands: ProgrammingCommands): Promise<SigningKeysState['trusted']> {
  return (await commands.signingKeys.load(SIGNING_KEYS_STREAM)).state.trusted;
}
