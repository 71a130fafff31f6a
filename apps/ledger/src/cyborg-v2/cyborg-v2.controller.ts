import { applyDecorators, Controller, UseInterceptors } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { MicroversionInterceptor } from './microversion.interceptor';

/**
 * A controller of Cyborg's v2 API at `/v2/<path>`: microversion negotiation
 * and Cyborg's version headers on every answer. Its routes are described by
 * the hand-written /v2/openapi.json (apps/ledger/src/openapi/), not by the
 * native document Nest's decorators generate.
 */
export const CyborgV2Controller = (path: string) =>
  applyDecorators(Controller(`v2/${path}`), UseInterceptors(MicroversionInterceptor), ApiExcludeController());
