import { ApiProperty } from '@nestjs/swagger';

/** What a report changed. `position` lets the caller wait for the projections (X-Ledger-Min-Position). */
export class HostReportResponse {
  @ApiProperty({ example: 'compute-1' })
  hostname!: string;

  @ApiProperty({ example: 2, description: 'events appended; 0 when nothing changed' })
  appended!: number;

  @ApiProperty({ nullable: true, example: 42, description: 'global position of the last appended event' })
  position!: number | null;

  @ApiProperty({ type: [String], example: ['inventory.DeviceDiscovered'] })
  events!: string[];
}

/** What a maintenance command changed. */
export class DeviceMaintenanceResponse {
  @ApiProperty({ format: 'uuid' })
  uuid!: string;

  @ApiProperty({ enum: ['enabled', 'maintaining'] })
  status!: 'enabled' | 'maintaining';

  @ApiProperty({ example: 1, description: 'events appended; 0 when the device was already in that state' })
  appended!: number;

  @ApiProperty({ nullable: true })
  position!: number | null;
}
