import { Controller, Get, Req, UseInterceptors } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Public } from '@ledger/auth/nest';
import { formatMicroversion, MAX_MICROVERSION, MIN_MICROVERSION } from './microversion';
import { MicroversionInterceptor } from './microversion.interceptor';

/** Cyborg's version document, as `openstack accelerator` negotiates it (CYBORG-V2.md §11). */
function versionDocument(request: FastifyRequest) {
  return {
    id: 'v2.0',
    status: 'CURRENT',
    min_version: formatMicroversion(MIN_MICROVERSION),
    max_version: formatMicroversion(MAX_MICROVERSION),
    links: [{ href: `${request.protocol}://${request.headers.host ?? 'localhost'}/v2/`, rel: 'self' }],
  };
}

/**
 * Version discovery, which every client does before its first call: `GET /`
 * lists the API versions, `GET /v2` describes v2. No token needed, as in Cyborg.
 */
@ApiExcludeController()
@Controller()
export class VersionDiscoveryController {
  @Public()
  @Get()
  root(@Req() request: FastifyRequest) {
    const v2 = { ...versionDocument(request), id: 'v2' };
    return {
      name: 'OpenStack Cyborg API',
      description:
        'Accelerator Ledger: an event-sourced successor to OpenStack Cyborg, lifecycle management of hardware accelerators such as GPUs, FPGAs, DPUs, SR-IOV NICs and crypto cards.',
      versions: [v2],
      default_version: v2,
    };
  }

  @Public()
  @Get('v2')
  @UseInterceptors(MicroversionInterceptor)
  v2(@Req() request: FastifyRequest) {
    return versionDocument(request);
  }
}
