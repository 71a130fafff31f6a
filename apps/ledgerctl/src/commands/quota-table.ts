/** A project's quota as the ledger returns it. */
export interface QuotaView {
  readonly project: string;
  readonly limits: Readonly<Record<string, number>>;
  readonly usage: Readonly<Record<string, number>>;
}

/** One row per resource with a limit or in use: `resource  limit  in use`, unlimited where no limit is set. */
export function formatQuotaTable(quota: QuotaView): string {
  const resources = [...new Set([...Object.keys(quota.limits), ...Object.keys(quota.usage)])].sort();
  if (resources.length === 0) return `project ${quota.project}: no limits set and nothing in use (every resource is unlimited)\n`;
  const rows = [
    ['RESOURCE', 'LIMIT', 'IN USE'],
    ...resources.map((resource) => [resource, String(quota.limits[resource] ?? 'unlimited'), String(quota.usage[resource] ?? 0)]),
  ];
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  const lines = rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]))).join('  '));
  return `project ${quota.project}\n${lines.join('\n')}\n`;
}
