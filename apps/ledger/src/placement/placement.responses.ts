import { ApiProperty } from '@nestjs/swagger';

export class DesiredProviderResponse {
  @ApiProperty({ format: 'uuid', description: "Cyborg's uuid3(NAMESPACE_DNS, name)" })
  uuid!: string;

  @ApiProperty({ example: 'compute-1_0000:3b:00.0', description: "the deployable's name" })
  name!: string;

  @ApiProperty({ format: 'uuid' })
  deviceUuid!: string;

  @ApiProperty({ format: 'uuid' })
  deployableUuid!: string;

  @ApiProperty({ example: 'PGPU', description: 'FPGA, PGPU, VGPU or CUSTOM_*' })
  resourceClass!: string;

  @ApiProperty({ example: 1 })
  total!: number;

  @ApiProperty({ example: 0, description: 'total while any reservation reason holds, else 0' })
  reserved!: number;

  @ApiProperty({ example: 1 })
  maxUnit!: number;

  @ApiProperty({ type: [String], example: ['CUSTOM_NVIDIA_20B5', 'OWNER_CYBORG'] })
  traits!: string[];

  @ApiProperty({ type: [String], enum: ['disabled', 'unhealthy', 'agent-lost', 'reprogramming'], example: [] })
  reservedBecause!: string[];
}

/** GET /api/v1/hosts/{hostname}/placement: what Placement should hold for the host's accelerators. */
export class HostPlacementResponse {
  @ApiProperty({ example: 'compute-1', description: "also the name of Nova's compute-node provider, the providers' parent" })
  hostname!: string;

  @ApiProperty({ example: 42, description: 'the log position this state reflects' })
  position!: number;

  @ApiProperty({ type: [DesiredProviderResponse], description: 'one child provider per deployable, sorted by name' })
  providers!: DesiredProviderResponse[];
}
