import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
  Max,
  ValidateNested,
} from 'class-validator';
import { ATTACH_HANDLE_KINDS, type AttachHandleKind, type ReportedPartitioning } from '@ledger/inventory';

const PCI_ADDRESS = /^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$/i;
const PCI_ID = /^[0-9a-f]{4}$/i;
const RESOURCE_CLASS = /^(FPGA|PGPU|VGPU|CUSTOM_[A-Z0-9_]+)$/;
const TRAIT = /^[A-Z0-9_]{1,255}$/;

/**
 * Shape checks for the agent's report. Size limits and the rules that span
 * fields (duplicate addresses, MDEV types…) are the inventory domain's
 * (HOST_REPORT_LIMITS), so they live in one place.
 */
export class ReportedAttachHandleDto {
  @ApiProperty({
    enum: ATTACH_HANDLE_KINDS,
    description:
      'PCI = a physical function, VF = an SR-IOV virtual function, MDEV = a mediated-device slot; MIG and REGION are partitions, derived from the device\'s partitioning (a normalised report carries them, and the ledger derives them again)',
  })
  @IsIn(ATTACH_HANDLE_KINDS)
  kind!: AttachHandleKind;

  @ApiProperty({ example: '0000:3b:00.1', description: 'PCI address; for MDEV the parent function' })
  @Matches(PCI_ADDRESS, { message: 'address must be a PCI address like 0000:3b:00.1' })
  address!: string;

  @ApiPropertyOptional({ example: 'physnet1' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  physicalNetwork?: string;

  @ApiPropertyOptional({ example: 'nvidia-35' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  mdevType?: string;

  @ApiPropertyOptional({ description: 'index of the MDEV slot on its parent' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(65535)
  slot?: number;

  @ApiPropertyOptional({ description: 'a partition\'s own handle (MIG device UUID, mdev UUID, region id): only on handles derived from the partitioning' })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  partition?: string;
}

export class ReportedDeployableDto {
  @ApiPropertyOptional({ description: 'Placement provider name; defaults to <hostname>_<pci address>' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  name?: string;

  @ApiProperty({ example: 'FPGA' })
  @Matches(RESOURCE_CLASS, { message: 'resourceClass must be FPGA, PGPU, VGPU or CUSTOM_*' })
  resourceClass!: string;

  @ApiProperty({ example: 1 })
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  count!: number;

  @ApiProperty({ type: [String], example: ['CUSTOM_FPGA_INTEL'] })
  @IsArray()
  @Matches(TRAIT, { each: true, message: 'each trait must be upper-case letters, digits and underscores' })
  traits!: string[];

  @ApiPropertyOptional({ example: 'intel_fpga' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  driverName?: string;

  @ApiProperty({ type: [ReportedAttachHandleDto] })
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => ReportedAttachHandleDto)
  attachHandles!: ReportedAttachHandleDto[];
}

export class ReportedDeviceDto {
  @ApiProperty({ enum: ['GPU', 'FPGA', 'DPU', 'NIC', 'QAT', 'NPU'] })
  @IsIn(['GPU', 'FPGA', 'DPU', 'NIC', 'QAT', 'NPU'])
  type!: 'GPU' | 'FPGA' | 'DPU' | 'NIC' | 'QAT' | 'NPU';

  @ApiProperty({ example: '8086', description: 'PCI vendor id, 4 hex digits' })
  @Matches(PCI_ID, { message: 'vendorId must be 4 hex digits' })
  vendorId!: string;

  @ApiProperty({ example: '09c4' })
  @Matches(PCI_ID, { message: 'productId must be 4 hex digits' })
  productId!: string;

  @ApiPropertyOptional({ example: '8086' })
  @IsOptional()
  @Matches(PCI_ID, { message: 'subsystemVendorId must be 4 hex digits' })
  subsystemVendorId?: string;

  @ApiPropertyOptional({ example: '0000' })
  @IsOptional()
  @Matches(PCI_ID, { message: 'subsystemProductId must be 4 hex digits' })
  subsystemProductId?: string;

  @ApiProperty({ example: 'PAC Arria10' })
  @IsString()
  @MaxLength(255)
  model!: string;

  @ApiProperty({ example: '0000:3b:00.0' })
  @Matches(PCI_ADDRESS, { message: 'pciAddress must be a PCI address like 0000:3b:00.0' })
  pciAddress!: string;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: { class: '120000' } })
  @IsObject()
  boardInfo!: Record<string, string>;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  vendorBoardInfo?: string;

  @ApiProperty({ nullable: true, example: 'intel-fpga-pci' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  driver!: string | null;

  @ApiProperty({ nullable: true, example: 0 })
  @IsOptional()
  @IsInt()
  @Min(-1)
  @Max(1023)
  numaNode!: number | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'number' }, example: { memoryGiB: 80 } })
  @IsOptional()
  @IsObject()
  capacity?: Record<string, number>;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'What the device can be carved into and what is carved now (MIG, vGPU types, FPGA regions); checked member by member by the inventory (docs/partitions.md)',
    example: { kind: 'MIG', enabled: true, slices: 8, profiles: [{ name: '1g.10gb', profileId: 19, slices: 1, memoryMiB: 9856, computeSlices: 1, maxCount: 7, placements: [0, 1, 2, 3, 4, 5, 6] }], partitions: [] },
  })
  @IsOptional()
  @IsObject()
  partitioning?: ReportedPartitioning;

  @ApiProperty({ type: [ReportedDeployableDto] })
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => ReportedDeployableDto)
  deployables!: ReportedDeployableDto[];
}

export class AgentInfoDto {
  @ApiPropertyOptional({ example: '0.1.0' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  version?: string;
}

/** PUT /api/v1/hosts/{hostname}/report: the agent's full picture of its host. */
export class HostReportRequest {
  @ApiPropertyOptional({ type: AgentInfoDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => AgentInfoDto)
  agent?: AgentInfoDto;

  @ApiProperty({ type: [ReportedDeviceDto] })
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => ReportedDeviceDto)
  devices!: ReportedDeviceDto[];
}
