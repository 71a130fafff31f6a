import type { ArqView } from '@ledger/projections/arqs';
import { pageOfList, type SortKey } from '../shared/list-page';
import type { PageArgs } from '../shared/page.args';

/** ArqQueries lists oldest first, ties by uuid: the page key. */
const arqKey = (arq: ArqView): SortKey => [arq.createdAt, arq.uuid];

export const pageOfArqs = (arqs: readonly ArqView[], args: PageArgs) => pageOfList(arqs, arqKey, args);
