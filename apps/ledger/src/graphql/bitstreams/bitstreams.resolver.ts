import { Inject } from '@nestjs/common';
import { Args, Query, Resolver } from '@nestjs/graphql';
import { Allow } from '@ledger/auth/nest';
import { BitstreamQueries, type BitstreamView } from '@ledger/projections/bitstreams';
import { pathUuid } from '../../inventory/inventory-not-found';
import { type ConnectionOf, toConnection } from '../shared/connection';
import { pageOfList } from '../shared/list-page';
import { connectionCost } from '../shared/page.args';
import { BitstreamConnection, BitstreamObject } from './bitstream.object';
import { BitstreamListArgs } from './bitstreams.args';

/** Registered images, as GET /api/v1/bitstreams serves them: any reader. */
@Resolver(() => BitstreamObject)
@Allow('admin', 'manager', 'member', 'reader')
export class BitstreamsResolver {
  constructor(@Inject(BitstreamQueries) private readonly queries: BitstreamQueries) {}

  @Query(() => BitstreamConnection, { description: 'Oldest first.', complexity: connectionCost })
  async bitstreams(@Args() args: BitstreamListArgs): Promise<ConnectionOf<BitstreamView>> {
    const images = await this.queries.listBitstreams({ live: args.live ?? undefined, functionId: args.functionId ?? undefined });
    return toConnection(pageOfList(images, (image) => [image.registeredAt, image.bitstreamId], args));
  }

  @Query(() => BitstreamObject, { nullable: true })
  async bitstream(@Args('bitstreamId') bitstreamId: string): Promise<BitstreamView | undefined> {
    return this.queries.getBitstream(pathUuid(bitstreamId, 'bitstreamId'));
  }
}
