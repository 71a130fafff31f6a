import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow as Accepted, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';

/**
 * `POST /api/v1/bitstreams`: `content`, or `url` with `sha256` and
 * `sizeBytes`. Uploaded, the image travels base64-encoded in the JSON
 * body, so LEDGER_BODY_LIMIT_BYTES (1 MiB by default) bounds it: an image
 * of up to about three quarters of the limit; larger images are registered
 * by URL. Members are checked by the programming domain (BITSTREAM.INVALID
 * names the member).
 */
export class RegisterBitstreamBody {
  @ApiPropertyOptional({ type: 'string', format: 'byte', description: 'the image bytes, base64 (or give url, sha256 and sizeBytes)' })
  @Accepted()
  content?: unknown;

  @ApiPropertyOptional({
    example: 'https://images.example.net/fpga/nlb0.gbs',
    description: 'instead of content: the http(s) URL the image is kept at; the ledger reads it once to check it, keeps no bytes, and programs name this URL',
  })
  @Accepted()
  url?: unknown;

  @ApiPropertyOptional({ example: 'ab'.repeat(32), description: 'with url: the sha256 the image must have, 64 hex digits' })
  @Accepted()
  sha256?: unknown;

  @ApiPropertyOptional({ example: 67108864, description: 'with url: the size in bytes the image must have (at most LEDGER_BITSTREAM_ORIGIN_MAX_BYTES)' })
  @Accepted()
  sizeBytes?: unknown;

  @ApiPropertyOptional({ type: 'string', format: 'byte', description: 'detached signature over the image bytes, base64; absent = unsigned' })
  @Accepted()
  signature?: unknown;

  @ApiPropertyOptional({ description: 'check the signature with this trusted key only (default: every trusted key)' })
  @Accepted()
  keyId?: unknown;

  @ApiProperty({ example: '9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f', description: 'the function (AFU id / logic uuid) the image loads, 32 hex digits' })
  @Accepted()
  functionId!: unknown;

  @ApiProperty({ example: 'b7a6f1d0c5e44c3b8e3f2a1b0c9d8e7f', description: 'the shell / PR interface id the image needs' })
  @Accepted()
  interfaceId!: unknown;

  @ApiProperty({ example: 'intel' })
  @Accepted()
  vendor!: unknown;

  @ApiPropertyOptional({ example: 'nlb0' })
  @Accepted()
  name?: unknown;
}

/** `POST /api/v1/bitstreams/{id}/retire`. */
export class RetireBitstreamBody {
  @ApiPropertyOptional({ example: 'superseded by nlb1' })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  reason?: string;
}

/** `GET /api/v1/bitstreams`. */
export class BitstreamListQuery {
  @ApiPropertyOptional({ enum: ['true', 'false'], description: 'true: only images not retired' })
  @IsOptional()
  @IsIn(['true', 'false'])
  live?: string;

  @ApiPropertyOptional({ example: '9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  functionId?: string;
}

/** `POST /api/v1/signing-keys`. */
export class TrustSigningKeyBody {
  @ApiProperty({ description: 'the public key, PEM (SPKI; PKCS#1 for RSA): Ed25519, RSA ≥ 2048 bits (PSS, SHA-256) or ECDSA P-256 (SHA-256)' })
  @Accepted()
  publicKeyPem!: unknown;

  @ApiPropertyOptional({ example: 'release signing key 2026' })
  @IsOptional()
  @IsString()
  label?: string;
}
