import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

/** POST /api/v1/devices/{uuid}/disable */
export class DisableDeviceRequest {
  @ApiPropertyOptional({ example: 'fan replacement', description: 'why the device is taken out of service' })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  reason?: string;
}
