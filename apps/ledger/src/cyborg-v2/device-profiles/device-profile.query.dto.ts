import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

/** `GET /v2/device_profiles?name=a,b`: the only filter Cyborg has. */
export class DeviceProfileListQuery {
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  name?: string;
}

/** `DELETE /v2/device_profiles?value=n1,n2`: names, or one uuid. */
export class DeviceProfileDeleteQuery {
  @IsString()
  @MinLength(1)
  @MaxLength(4096)
  value!: string;
}
