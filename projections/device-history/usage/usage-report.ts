import { type KeyObject, sign, verify } from 'node:crypto';
import { canonicalJson } from '@ledger/kernel';
import type { UsageRow } from './fold-usage';
import type { UsageGroupBy, UsageWindow } from './usage-window';

export const USAGE_REPORT_KIND = 'ledger.UsageReport';

/** What a usage report vouches for, before its signature. */
export interface UsageReportBody {
  readonly kind: typeof USAGE_REPORT_KIND;
  readonly from: UsageWindow['from'];
  readonly to: UsageWindow['to'];
  readonly groupBy: UsageGroupBy;
  /** Whose rows: null for every project's (an operator's report), else the one project a tenant's report covers. */
  readonly project: string | null;
  /** The log position the report was computed at: nothing after it is counted. */
  readonly position: number;
  readonly rows: readonly UsageRow[];
}

/** A body and its Ed25519 signature (base64) with the ledger's checkpoint key over the body's canonical JSON; null when no key was at hand. */
export interface UsageReport extends UsageReportBody {
  readonly signature: string | null;
}

export function usageReportBody(window: UsageWindow, groupBy: UsageGroupBy, project: string | null, rows: readonly UsageRow[]): UsageReportBody {
  return { kind: USAGE_REPORT_KIND, from: window.from, to: window.to, groupBy, project, position: window.to.position, rows };
}

const bodyBytes = (report: UsageReportBody): Buffer => {
  const { kind, from, to, groupBy, project, position, rows } = report;
  return Buffer.from(canonicalJson({ kind, from, to, groupBy, project, position, rows }), 'utf8');
};

/** Ed25519 signatures are deterministic: the same body and key give the same bytes, live or offline. */
export function signUsageReport(body: UsageReportBody, privateKey: KeyObject | undefined): UsageReport {
  return { ...body, signature: privateKey ? sign(null, bodyBytes(body), privateKey).toString('base64') : null };
}

export function usageReportSignatureValid(report: UsageReport, publicKey: KeyObject): boolean {
  if (report.signature === null) return false;
  try {
    return verify(null, bodyBytes(report), publicKey, Buffer.from(report.signature, 'base64'));
  } catch {
    return false;
  }
}

/** The report's bytes: canonical JSON, so the same period at the same position reads the same everywhere. */
export const usageReportText = (report: UsageReport): string => canonicalJson(report);
