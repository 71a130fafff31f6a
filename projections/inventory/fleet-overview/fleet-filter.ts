import type { AgentStatus } from '../live-view/live-view.views';
import { Conditions } from '../sql-conditions';

/**
 * Which hosts an overview counts and lists. Device criteria (type, status,
 * health) keep the hosts with at least one such device, and the device
 * counts count only those devices. `search` finds a host by its name (any
 * part), one of its devices (uuid prefix, model, PCI address) or a request
 * bound on it (project, instance or request uuid).
 */
export interface FleetFilter {
  readonly type?: string;
  readonly deviceStatus?: 'enabled' | 'maintaining';
  readonly health?: 'ok' | 'degraded' | 'failed';
  readonly agent?: AgentStatus;
  readonly hostStatus?: string;
  readonly search?: string;
  /** Only hosts with something wrong: agent not up, a failed provision, or a device not healthy or out of service. */
  readonly attention?: boolean;
  /** Whose requests `search` may find a host by: every project's (an admin), or one project's (anyone else: no other project's use shows). */
  readonly requestsOf: { readonly all: true } | { readonly project: string };
}

/** The hosts table `h` joined to the live view `l`, as every overview query reads it. */
export const HOSTS_AND_LIVENESS = 'inv_hosts h LEFT JOIN inv_host_liveness l ON l.hostname = h.hostname';

const AGENT_CLAUSES: Record<AgentStatus, string> = {
  lost: 'h.agent_lost_at IS NOT NULL',
  up: 'h.agent_lost_at IS NULL AND l.last_seen_ms IS NOT NULL',
  unknown: 'h.agent_lost_at IS NULL AND l.last_seen_ms IS NULL',
};

/**
 * Something on the host needs an operator: what `attention` keeps, and what
 * the overview counts as such. The hosts with a device in trouble are one
 * sub-select, run once, not a lookup per host (a third of the count's time
 * with 10,000 hosts).
 */
export const NEEDS_ATTENTION = `(NOT (${AGENT_CLAUSES.up}) OR h.status = 'provision-failed'
  OR h.hostname IN (SELECT a.hostname FROM inv_devices a WHERE a.removed = 0 AND (a.health <> 'ok' OR a.status <> 'enabled')))`;

/** `LIKE` text that matches `text` literally (its `%`, `_` and `\` escaped), lower-cased. */
const literal = (text: string): string => text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`);

const requestScope = (filter: FleetFilter, where: Conditions): string => ('all' in filter.requestsOf ? '' : ` AND r.project_id = ${where.param(filter.requestsOf.project)}`);

/** The device criteria on devices `d`, each parameter taken from `where`. */
export function deviceClauses(filter: FleetFilter, where: Conditions): string[] {
  const clauses = ['d.removed = 0'];
  if (filter.type !== undefined) clauses.push(`d.type = ${where.param(filter.type)}`);
  if (filter.deviceStatus !== undefined) clauses.push(`d.status = ${where.param(filter.deviceStatus)}`);
  if (filter.health !== undefined) clauses.push(`d.health = ${where.param(filter.health)}`);
  return clauses;
}

/**
 * The hosts `search` finds by a device (uuid prefix, model, PCI address) or
 * a request in the filter's scope (project, instance, request uuid): one
 * statement, run once per overview, whose names the overview's statements
 * then take as a list — the scans of the devices and requests are not
 * repeated in each. `UNION ALL` (names may repeat): a plain `UNION` has
 * SQLite walk the devices in host order, one row lookup each, rather than
 * reading the table straight through.
 */
export function searchedHostsStatement(filter: FleetFilter): { readonly sql: string; readonly params: unknown[] } {
  const search = filter.search?.trim() ?? '';
  const where = new Conditions([]);
  const exact = where.param(search);
  const anywhere = where.param(`%${literal(search)}%`);
  const prefix = where.param(`${literal(search)}%`);
  const sql = `SELECT s.hostname FROM inv_devices s WHERE s.removed = 0
      AND (s.uuid LIKE ${prefix} ESCAPE '\\' OR LOWER(s.model) LIKE ${anywhere} ESCAPE '\\' OR s.pci_address = ${exact})
    UNION ALL SELECT r.hostname FROM arq_requests r WHERE r.hostname IS NOT NULL
      AND (r.project_id = ${exact} OR r.instance_uuid = ${exact} OR r.uuid = ${exact})${requestScope(filter, where)}`;
  return { sql, params: where.params };
}

/** The WHERE conditions on `h` (and `l`) that select the filter's hosts; `searched`: the hosts searchedHostsStatement found. */
export function hostConditions(filter: FleetFilter, searched: readonly string[]): Conditions {
  const where = new Conditions([]);
  if (filter.agent !== undefined) where.add(AGENT_CLAUSES[filter.agent]);
  if (filter.hostStatus !== undefined) where.add(`h.status = ${where.param(filter.hostStatus)}`);
  if (filter.type !== undefined || filter.deviceStatus !== undefined || filter.health !== undefined) {
    where.add(`h.hostname IN (SELECT d.hostname FROM inv_devices d WHERE ${deviceClauses(filter, where).join(' AND ')})`);
  }
  if (filter.attention) where.add(NEEDS_ATTENTION);
  const search = filter.search?.trim();
  if (search) {
    const byName = `LOWER(h.hostname) LIKE ${where.param(`%${literal(search)}%`)} ESCAPE '\\'`;
    where.add(searched.length === 0 ? byName : `(${byName} OR h.hostname IN (${searched.map((name) => where.param(name)).join(', ')}))`);
  }
  return where;
}
