import { Module } from '@nestjs/common';
import { ProvisionHostController } from './provision-host.controller';

/** The native API's entry to the provision workflow (its instances are read under /api/v1/workflows). */
@Module({ controllers: [ProvisionHostController] })
export class ProvisioningHttpModule {}
