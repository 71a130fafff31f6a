import { Module } from '@nestjs/common';
import { ConsistencyService } from '../http/consistency.service';
import { bitstreamQueriesProvider } from './bitstream-queries.provider';
import { BitstreamsController } from './bitstreams.controller';
import { DeviceProvenanceController } from './device-provenance.controller';
import { SigningKeysController } from './signing-keys.controller';

/** The native bitstream API under /api/v1: images, signing keys, provenance. The content store comes from the global ProgrammingModule. */
@Module({
  controllers: [BitstreamsController, SigningKeysController, DeviceProvenanceController],
  providers: [bitstreamQueriesProvider, ConsistencyService],
})
export class ProgrammingHttpModule {}
