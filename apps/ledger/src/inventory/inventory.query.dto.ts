import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, IsUUID, Matches, Max, MaxLength, Min } from 'class-validator';
import { AsOfParameter } from '../audit/as-of.query';

/** A page's size: `limit`, 1–1000, default 100. */
export class LimitQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: 1000, default: 100 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number;
}

/** Keyset pagination: `limit` (1–1000, default 100) and the `nextCursor` of the previous page. */
export class PageQuery extends LimitQuery {
  @ApiPropertyOptional({ description: 'nextCursor of the previous page' })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  cursor?: string;
}

export class HostListQuery extends PageQuery {
  @AsOfParameter()
  asOf?: string;
}

export class DeviceListQuery extends PageQuery {
  @AsOfParameter()
  asOf?: string;

  @ApiPropertyOptional({ example: 'compute-1' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  hostname?: string;

  @ApiPropertyOptional({ enum: ['GPU', 'FPGA', 'DPU', 'NIC', 'QAT', 'NPU'] })
  @IsOptional()
  @IsIn(['GPU', 'FPGA', 'DPU', 'NIC', 'QAT', 'NPU'])
  type?: string;

  @ApiPropertyOptional({ example: '10de', description: 'PCI vendor id' })
  @IsOptional()
  @Matches(/^(0x)?[0-9a-fA-F]{4}$/, { message: 'vendor must be a 4-digit hex PCI vendor id' })
  vendor?: string;

  @ApiPropertyOptional({ enum: ['enabled', 'maintaining'] })
  @IsOptional()
  @IsIn(['enabled', 'maintaining'])
  status?: 'enabled' | 'maintaining';
}

export class DeployableListQuery extends PageQuery {
  @AsOfParameter()
  asOf?: string;

  @ApiPropertyOptional({ example: 'compute-1' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  hostname?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  device?: string;

  @ApiPropertyOptional({ example: 'FPGA' })
  @IsOptional()
  @Matches(/^(FPGA|PGPU|VGPU|CUSTOM_[A-Z0-9_]+)$/, { message: 'resourceClass must be FPGA, PGPU, VGPU or CUSTOM_*' })
  resourceClass?: string;
}
