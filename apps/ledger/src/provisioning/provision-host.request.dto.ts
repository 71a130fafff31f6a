import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsUUID, Max, Min } from 'class-validator';
import { MAX_VFS } from '@ledger/jobs';

/** `POST /api/v1/hosts/{hostname}/provision`. */
export class ProvisionHostBody {
  @ApiProperty({ format: 'uuid', description: 'the registered bitstream (GET /api/v1/bitstreams) to load as the FPGA shell' })
  @IsUUID()
  shell!: string;

  @ApiProperty({ type: 'integer', minimum: 0, maximum: MAX_VFS, description: "SR-IOV VFs to configure on the FPGA's physical function" })
  @IsInt()
  @Min(0)
  @Max(MAX_VFS)
  vfs!: number;

  @ApiPropertyOptional({ format: 'uuid', description: 'the FPGA, when the host has several' })
  @IsOptional()
  @IsUUID()
  device?: string;
}
