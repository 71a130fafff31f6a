import { Field, Int, ObjectType } from '@nestjs/graphql';
import { Connection } from '../shared/connection';
import { JsonScalar } from '../shared/json.scalar';

@ObjectType('BitstreamOrigin', { description: 'Where the image bytes are: stored by the ledger, or at an http(s) URL.' })
export class BitstreamOriginObject {
  @Field({ description: '`stored` or `url`.' }) kind!: string;
  @Field({ description: '`sha256:<hex>` for stored images, else the URL.' }) ref!: string;
}

@ObjectType('Bitstream', { description: 'A registered FPGA image (docs/bitstreams in the native API).' })
export class BitstreamObject {
  @Field() bitstreamId!: string;
  @Field() sha256!: string;
  @Field(() => Int) sizeBytes!: number;
  @Field() functionId!: string;
  @Field() interfaceId!: string;
  @Field() vendor!: string;
  @Field(() => String, { nullable: true }) name!: string | null;
  @Field(() => JsonScalar, { description: 'The signature verdict recorded at registration as it stands now: `revoked` (with the keyId) while its signing key is revoked.' }) signature!: unknown;
  @Field(() => BitstreamOriginObject) origin!: BitstreamOriginObject;
  @Field({ description: '`registered` or `retired`.' }) state!: string;
  @Field() registeredAt!: string;
  @Field() registeredBy!: string;
  @Field(() => String, { nullable: true }) retiredAt!: string | null;
  @Field(() => String, { nullable: true }) retireReason!: string | null;
}

@ObjectType()
export class BitstreamConnection extends Connection(BitstreamObject, 'Bitstream') {}
