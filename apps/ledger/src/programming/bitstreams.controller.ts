import { Body, Controller, Get, Headers, HttpCode, Inject, Param, Post, Query, Req, StreamableFile } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiHeader, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Allow, CurrentPrincipal, type Principal } from '@ledger/auth';
import {
  BITSTREAM_CONTENT_STORE,
  type BitstreamContentStore,
  BitstreamInvalidError,
  BitstreamNotFoundError,
  type ProgrammingCommandResult,
  RegisterBitstreamCommand,
  type RegisteredBitstream,
  RetireBitstreamCommand,
} from '@ledger/programming';
import { BitstreamQueries, type BitstreamView } from '@ledger/projections/bitstreams';
import { commandContext } from '../http/command-context';
import { ConsistencyService, MIN_POSITION_HEADER } from '../http/consistency.service';
import { pathUuid } from '../inventory/inventory-not-found';
import { base64At, textAt } from './bitstream-request.parsing';
import { BitstreamListQuery, RegisterBitstreamBody, RetireBitstreamBody } from './bitstreams.request.dto';

@ApiTags('bitstreams')
@ApiHeader({ name: MIN_POSITION_HEADER, required: false, description: 'wait until the projections have reached this position' })
@Controller('api/v1/bitstreams')
export class BitstreamsController {
  constructor(
    @Inject(BitstreamQueries) private readonly queries: BitstreamQueries,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(ConsistencyService) private readonly consistency: ConsistencyService,
    @Inject(BITSTREAM_CONTENT_STORE) private readonly content: BitstreamContentStore,
  ) {}

  @Post()
  @Allow('admin')
  @ApiOperation({
    summary: 'Register an image with its detached signature',
    description:
      'Checks the signature against the trusted keys; refuses a bad one (BITSTREAM.SIGNATURE_INVALID) and an unsigned image unless LEDGER_BITSTREAM_ALLOW_UNSIGNED (BITSTREAM.UNSIGNED). The verdict is recorded in programming.BitstreamRegistered.',
  })
  register(@Body() body: RegisterBitstreamBody, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest): Promise<RegisteredBitstream> {
    const content = base64At(body.content, 'content');
    if (content.length === 0) throw new BitstreamInvalidError('content', 'must not be empty');
    const input = {
      content,
      signature: body.signature === undefined || body.signature === null ? null : base64At(body.signature, 'signature'),
      ...(body.keyId === undefined ? {} : { keyId: textAt(body.keyId, 'keyId').toLowerCase() }),
      functionId: textAt(body.functionId, 'functionId'),
      interfaceId: textAt(body.interfaceId, 'interfaceId'),
      vendor: textAt(body.vendor, 'vendor'),
      name: body.name === undefined || body.name === null ? null : textAt(body.name, 'name'),
    };
    return this.commands.execute(new RegisterBitstreamCommand(input, commandContext(principal, request)));
  }

  @Get()
  @Allow('admin', 'manager', 'member', 'reader')
  @ApiOperation({ summary: 'Registered images, oldest first, with their signature verdict' })
  async list(@Query() query: BitstreamListQuery, @Headers(MIN_POSITION_HEADER) minPosition?: string): Promise<BitstreamView[]> {
    await this.consistency.awaitHeader(minPosition);
    return this.queries.listBitstreams({ live: query.live === 'true', ...(query.functionId === undefined ? {} : { functionId: query.functionId }) });
  }

  @Get(':id')
  @Allow('admin', 'manager', 'member', 'reader')
  @ApiOperation({ summary: 'One image: checksum, size, function and interface ids, signature verdict, state' })
  async get(@Param('id') id: string, @Headers(MIN_POSITION_HEADER) minPosition?: string): Promise<BitstreamView> {
    return this.find(pathUuid(id, 'id'), minPosition);
  }

  @Get(':id/content')
  @Allow('admin', 'agent')
  @ApiProduces('application/octet-stream')
  @ApiOperation({ summary: "The image's bytes, for agents to program (check them against its sha256)" })
  async download(@Param('id') id: string, @Headers(MIN_POSITION_HEADER) minPosition?: string): Promise<StreamableFile> {
    const bitstream = await this.find(pathUuid(id, 'id'), minPosition);
    const stored = await this.content.open(bitstream.sha256);
    if (!stored) throw new BitstreamNotFoundError(bitstream.bitstreamId);
    return new StreamableFile(stored.stream, { type: 'application/octet-stream', length: stored.sizeBytes });
  }

  @Post(':id/retire')
  @HttpCode(200)
  @Allow('admin')
  @ApiOperation({ summary: 'Retire an image (programming.BitstreamRetired); again appends nothing' })
  retire(
    @Param('id') id: string,
    @Body() body: RetireBitstreamBody,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
  ): Promise<ProgrammingCommandResult> {
    const bitstreamId = pathUuid(id, 'id');
    return this.commands.execute(new RetireBitstreamCommand({ bitstreamId, reason: body.reason ?? null }, commandContext(principal, request)));
  }

  private async find(bitstreamId: string, minPosition: string | undefined): Promise<BitstreamView> {
    await this.consistency.awaitHeader(minPosition);
    const bitstream = await this.queries.getBitstream(bitstreamId);
    if (!bitstream) throw new BitstreamNotFoundError(bitstreamId);
    return bitstream;
  }
}
