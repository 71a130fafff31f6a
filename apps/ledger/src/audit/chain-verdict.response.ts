import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class ChainBreakResponse {
  @ApiProperty({ example: 42, description: 'the first position that does not verify' })
  position!: number;

  @ApiPropertyOptional({ format: 'uuid' })
  eventId?: string;

  @ApiProperty({ example: 'hash-mismatch', description: 'what is wrong: an edited event, a broken link, a forged or contradicted checkpoint, a cut tail' })
  reason!: string;

  @ApiProperty()
  detail!: string;
}

export class CheckpointAnchorResponse {
  @ApiProperty({ example: 120 })
  position!: number;

  @ApiProperty({ format: 'date-time' })
  at!: string;
}

export class RollbackResponse {
  @ApiProperty({ example: 15, description: "the store's head the operator accepted: the log was put back to it" })
  to!: number;

  @ApiProperty({ example: 30, description: 'the signed head given up' })
  signedHead!: number;

  @ApiProperty({ example: 'ops-alice' })
  by!: string;

  @ApiProperty({ example: 'restored the backup' })
  reason!: string;

  @ApiProperty({ format: 'date-time' })
  at!: string;
}

/** GET /api/v1/audit/verify: what `ledgerctl audit verify --json` prints. */
export class ChainVerdictResponse {
  @ApiProperty({ description: 'the chain and every signed checkpoint agree' })
  ok!: boolean;

  @ApiProperty({ example: 128, description: 'events checked' })
  checked!: number;

  @ApiProperty({ example: 128, description: 'last position that verified' })
  headPosition!: number;

  @ApiProperty({ description: 'chain hash at headPosition' })
  headHash!: string;

  @ApiPropertyOptional({ type: CheckpointAnchorResponse, description: 'the newest signed checkpoint within the log; absent when none verified' })
  anchor?: CheckpointAnchorResponse;

  @ApiProperty({ example: 8, description: 'events after the anchor, not yet covered by a signed checkpoint' })
  unanchored!: number;

  @ApiProperty({ example: 3, description: 'genuine checkpoints found' })
  checkpoints!: number;

  @ApiPropertyOptional({ type: ChainBreakResponse })
  firstBreak?: ChainBreakResponse;

  @ApiPropertyOptional({ type: [RollbackResponse], description: 'accepted rollbacks (`ledgerctl audit accept-rollback`) that gave up signed checkpoints; absent when none did' })
  rollbacks?: RollbackResponse[];
}
