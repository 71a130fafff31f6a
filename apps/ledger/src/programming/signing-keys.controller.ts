import { Body, Controller, Get, Headers, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '@ledger/auth';
import { Allow, CurrentPrincipal } from '@ledger/auth/nest';
import { type ProgrammingCommandResult, RevokeSigningKeyCommand, TrustSigningKeyCommand, type TrustedSigningKey } from '@ledger/programming';
import { BitstreamQueries, type SigningKeyView } from '@ledger/projections/bitstreams';
import { commandContext } from '../http/command-context';
import { ConsistencyService, MIN_POSITION_HEADER } from '../http/consistency.service';
import { TrustSigningKeyBody } from './bitstreams.request.dto';

@ApiTags('bitstreams')
@ApiHeader({ name: MIN_POSITION_HEADER, required: false, description: 'wait until the projections have reached this position' })
@Controller('api/v1/signing-keys')
export class SigningKeysController {
  constructor(
    @Inject(BitstreamQueries) private readonly queries: BitstreamQueries,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(ConsistencyService) private readonly consistency: ConsistencyService,
  ) {}

  @Post()
  @HttpCode(200)
  @Allow('admin')
  @ApiOperation({ summary: 'Trust a public key to sign images (programming.SigningKeyTrusted); its id is the sha256 of its SPKI DER' })
  trust(@Body() body: TrustSigningKeyBody, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest): Promise<TrustedSigningKey> {
    return this.commands.execute(
      new TrustSigningKeyCommand({ publicKeyPem: body.publicKeyPem as string, label: body.label ?? null }, commandContext(principal, request)),
    );
  }

  @Get()
  @Allow('admin', 'manager', 'member', 'reader')
  @ApiOperation({ summary: 'Signing keys, trusted and revoked' })
  async list(@Headers(MIN_POSITION_HEADER) minPosition?: string): Promise<SigningKeyView[]> {
    await this.consistency.awaitHeader(minPosition);
    return this.queries.listSigningKeys();
  }

  @Post(':keyId/revoke')
  @HttpCode(200)
  @Allow('admin')
  @ApiOperation({ summary: 'Stop trusting a key (programming.SigningKeyRevoked); images registered with it stay' })
  revoke(@Param('keyId') keyId: string, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest): Promise<ProgrammingCommandResult> {
    return this.commands.execute(new RevokeSigningKeyCommand({ keyId }, commandContext(principal, request)));
  }
}
