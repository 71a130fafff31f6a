import { type DynamicModule, Module } from '@nestjs/common';
import { FileBitstreamContentStore } from '../infrastructure/file-bitstream-content.store';
import { HttpBitstreamOriginReader } from '../infrastructure/http-bitstream-origin.reader';
import { BITSTREAM_CONTENT_STORE } from './bitstream-content.port';
import { BITSTREAM_ORIGIN_READER } from './bitstream-origin.port';
import { programmingCommandsProvider } from './programming-commands';
import { PROGRAMMING_SETTINGS, type ProgrammingSettings } from './programming.settings';
import { RegisterBitstreamFromOriginHandler } from './register-bitstream-from-origin/register-bitstream-from-origin.handler';
import { RegisterBitstreamHandler } from './register-bitstream/register-bitstream.handler';
import { RetireBitstreamHandler } from './retire-bitstream/retire-bitstream.handler';
import { RevokeSigningKeyHandler } from './revoke-signing-key/revoke-signing-key.handler';
import { TrustSigningKeyHandler } from './trust-signing-key/trust-signing-key.handler';

/**
 * The programming command side (bitstreams and signing keys) and the
 * content store the API serves images from. Global, so the HTTP module
 * reaches the store without a second instance. Expects
 * `CqrsModule.forRoot()` and a global `EVENT_STORE` and `STREAM_LOCKS`.
 */
@Module({})
export class ProgrammingModule {
  static forRoot(settings: ProgrammingSettings): DynamicModule {
    return {
      module: ProgrammingModule,
      global: true,
      providers: [
        { provide: PROGRAMMING_SETTINGS, useValue: settings },
        { provide: BITSTREAM_CONTENT_STORE, useFactory: () => new FileBitstreamContentStore(settings.contentDir) },
        { provide: BITSTREAM_ORIGIN_READER, useFactory: () => new HttpBitstreamOriginReader() },
        programmingCommandsProvider,
        RegisterBitstreamHandler,
        RegisterBitstreamFromOriginHandler,
        RetireBitstreamHandler,
        TrustSigningKeyHandler,
        RevokeSigningKeyHandler,
      ],
      exports: [BITSTREAM_CONTENT_STORE, PROGRAMMING_SETTINGS],
    };
  }
}
