import { arqStream } from '@ledger/allocation';
import type { WorkflowFilter } from '@ledger/workflows';

/** `?arq=<uuid>` (REST and GraphQL) as the workflows list's filter: the instances that work on that request's stream (its binds). */
export const subjectFilterOf = (arq: string | null | undefined): Pick<WorkflowFilter, 'subject'> =>
  arq === undefined || arq === null ? {} : { subject: arqStream(arq.toLowerCase()) };
