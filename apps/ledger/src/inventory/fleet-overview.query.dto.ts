import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQuery } from './inventory.query.dto';

const DEVICE_TYPES = ['GPU', 'FPGA', 'DPU', 'NIC', 'QAT', 'NPU'] as const;

/** `GET /api/v1/fleet`: the filters of the fleet overview and a page of its hosts. */
export class FleetOverviewQuery extends PageQuery {
  @ApiPropertyOptional({ enum: DEVICE_TYPES, description: 'hosts with a device of this type' })
  @IsOptional()
  @IsIn(DEVICE_TYPES)
  type?: string;

  @ApiPropertyOptional({ enum: ['enabled', 'maintaining'], description: 'hosts with a device in this status' })
  @IsOptional()
  @IsIn(['enabled', 'maintaining'])
  deviceStatus?: 'enabled' | 'maintaining';

  @ApiPropertyOptional({ enum: ['ok', 'degraded', 'failed'], description: 'hosts with a device of this health' })
  @IsOptional()
  @IsIn(['ok', 'degraded', 'failed'])
  health?: 'ok' | 'degraded' | 'failed';

  @ApiPropertyOptional({ enum: ['up', 'lost', 'unknown'] })
  @IsOptional()
  @IsIn(['up', 'lost', 'unknown'])
  agent?: 'up' | 'lost' | 'unknown';

  @ApiPropertyOptional({ enum: ['registered', 'provisioning', 'provisioned', 'provision-failed'] })
  @IsOptional()
  @IsIn(['registered', 'provisioning', 'provisioned', 'provision-failed'])
  hostStatus?: string;

  @ApiPropertyOptional({ example: 'compute-1', description: 'a part of a host name, a device uuid prefix, model or PCI address, or a project, instance or request uuid bound on the host' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  search?: string;

  @ApiPropertyOptional({ enum: ['true', 'false'], description: 'only hosts with something wrong: agent not up, a failed provision, a device not healthy or out of service' })
  @IsOptional()
  @IsIn(['true', 'false'])
  attention?: 'true' | 'false';
}
