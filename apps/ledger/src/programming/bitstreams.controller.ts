import { Body, Controller, Get, Headers, HttpCode, Inject, Param, Post, Query, Req, StreamableFile } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiHeader, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '@ledger/auth';
import { Allow, CurrentPrincipal } from '@ledger/auth/nest';
import {
  BITSTREAM_CONTENT_STORE,
  type BitstreamContentStore,
  BitstreamContentAtOriginError,
  BitstreamInvalidError,
  BitstreamNotFoundError,
  type ProgrammingCommandResult,
  RegisterBitstreamCommand,
  RegisterBitstreamFromOriginCommand,
  type RegisteredBitstream,
  RetireBitstreamCommand,
} from '@ledger/programming';
import { BitstreamQueries, type BitstreamView } from '@ledger/projections/bitstreams';
import { commandContext } from '../http/command-context';
import { ConsistencyService, MIN_POSITION_HEADER } from '../http/consistency.service';
import { pathUuid } from '../inventory/inventory-not-found';
import { base64At, integerAt, metadataOf, textAt } from './bitstream-request.parsing';
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
    summary: 'Register an image with its detached signature: its bytes, or its http(s) URL with the sha256 and size it must have',
    description:
      'Checks the signature against the trusted keys; refuses a bad one (BITSTREAM.SIGNATURE_INVALID) and an unsigned image unless LEDGER_BITSTREAM_ALLOW_UNSIGNED (BITSTREAM.UNSIGNED). The verdict is recorded in programming.BitstreamRegistered. With `url` the ledger reads the image once (at most the declared size, LEDGER_BITSTREAM_ORIGIN_MAX_BYTES, LEDGER_BITSTREAM_ORIGIN_TIMEOUT_MS), checks it and records the URL as its origin without keeping the bytes (BITSTREAM.ORIGIN_INVALID, BITSTREAM.ORIGIN_UNAVAILABLE, BITSTREAM.ORIGIN_MISMATCH).',
  })
  register(@Body() body: RegisterBitstreamBody, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest): Promise<RegisteredBitstream> {
    const context = commandContext(principal, request);
    if ((body.content === undefined) === (body.url === undefined)) throw new BitstreamInvalidError('content', 'give either content (the bytes) or url, not both');
    if (body.url !== undefined) {
      const declared = { url: textAt(body.url, 'url'), sha256: textAt(body.sha256, 'sha256'), sizeBytes: integerAt(body.sizeBytes, 'sizeBytes') };
      return this.commands.execute(new RegisterBitstreamFromOriginCommand({ ...declared, ...metadataOf(body) }, context));
    }
    const content = base64At(body.content, 'content');
    if (content.length === 0) throw new BitstreamInvalidError('content', 'must not be empty');
    return this.commands.execute(new RegisterBitstreamCommand({ content, ...metadataOf(body) }, context));
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
  @ApiOperation({
    summary: "The image's bytes, for agents to program (check them against its sha256)",
    description: 'An image registered by URL is not kept by the ledger: 409 BITSTREAM.CONTENT_AT_ORIGIN names its origin (no redirect: an agent would carry its ledger credential there).',
  })
  async download(@Param('id') id: string, @Headers(MIN_POSITION_HEADER) minPosition?: string): Promise<StreamableFile> {
    const bitstream = await this.find(pathUuid(id, 'id'), minPosition);
    if (bitstream.origin.kind === 'url') throw new BitstreamContentAtOriginError(bitstream.bitstreamId, bitstream.origin.ref);
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
