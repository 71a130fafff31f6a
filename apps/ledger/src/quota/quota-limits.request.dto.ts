import { ApiProperty } from '@nestjs/swagger';
import { IsObject } from 'class-validator';

/** PUT /api/v1/quotas/{project}. Names and values are checked by the quota domain (QUOTA.INVALID). */
export class PutQuotaLimitsRequest {
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer', minimum: 0, nullable: true },
    example: { FPGA: 4, 'capacity:memoryGiB': 160, PGPU: null },
    description:
      'limit per resource (FPGA, PGPU, VGPU, GPU, CUSTOM_*, capacity:<name>); null removes the limit. Resources not named keep their limit.',
  })
  @IsObject()
  limits!: Record<string, number | null>;
}
