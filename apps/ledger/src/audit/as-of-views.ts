import { ArqQueries, arqProjection } from '@ledger/projections/arqs';
import { InventoryQueries, inventoryProjection } from '@ledger/projections/inventory';
import { QuotaQueries, quotaProjection } from '@ledger/projections/quota';
import { WorkflowQueries, workflowsProjection } from '@ledger/workflows';
import type { AsOfView } from './as-of-reads.service';

/** The read models whose routes take `?asOf=`: the inventory, accelerator requests, quota and workflows. */
export const INVENTORY_AS_OF: AsOfView<InventoryQueries> = { projection: inventoryProjection, queries: (db) => new InventoryQueries(db) };
export const ARQS_AS_OF: AsOfView<ArqQueries> = { projection: arqProjection, queries: (db) => new ArqQueries(db) };
export const QUOTA_AS_OF: AsOfView<QuotaQueries> = { projection: quotaProjection, queries: (db) => new QuotaQueries(db) };
export const WORKFLOWS_AS_OF: AsOfView<WorkflowQueries> = { projection: workflowsProjection, queries: (db) => new WorkflowQueries(db) };

/** The projections behind those routes: the read models the processors role snapshots for as-of reads. */
export const AS_OF_PROJECTIONS = [INVENTORY_AS_OF, ARQS_AS_OF, QUOTA_AS_OF, WORKFLOWS_AS_OF].map((view) => view.projection);
