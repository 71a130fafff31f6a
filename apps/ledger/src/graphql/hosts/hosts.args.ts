import { ArgsType } from '@nestjs/graphql';
import { WithAsOf } from '../shared/as-of';
import { PageArgs } from '../shared/page.args';

@ArgsType()
export class HostListArgs extends WithAsOf(PageArgs) {}
