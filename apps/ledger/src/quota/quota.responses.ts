import { ApiProperty } from '@nestjs/swagger';

const AMOUNTS = { type: 'object', additionalProperties: { type: 'integer', minimum: 0 } } as const;

/** A project's quota. A resource without a limit is unlimited. */
export class QuotaResponse {
  @ApiProperty({ example: 'p1' })
  project!: string;

  @ApiProperty({ ...AMOUNTS, example: { FPGA: 4, 'capacity:memoryGiB': 160 }, description: 'limit per resource; absent = unlimited' })
  limits!: Record<string, number>;

  @ApiProperty({ ...AMOUNTS, example: { FPGA: 1, 'capacity:memoryGiB': 80 }, description: 'amount reserved per resource; absent = 0' })
  usage!: Record<string, number>;
}

/** The quota after a change, and what the change recorded. */
export class QuotaChangeResponse extends QuotaResponse {
  @ApiProperty({ example: 2, description: 'events appended: one per limit that changed; 0 when nothing changed' })
  appended!: number;

  @ApiProperty({ nullable: true, example: 42, description: 'global position of the last appended event' })
  position!: number | null;
}

/** A page of projects' quotas, by project name. */
export class QuotaProjectsResponse {
  @ApiProperty({ type: [QuotaResponse] })
  items!: QuotaResponse[];

  @ApiProperty({ nullable: true, type: String, description: 'pass as `cursor` for the next page; null on the last' })
  nextCursor!: string | null;
}
