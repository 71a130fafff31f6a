import type { JobView } from '@ledger/projections/jobs';

/** Long playbook output tails are cut to their end: the failing task is there. */
const MAX_BLOCK_LINES = 20;
/** Ansible's own order of a PLAY RECAP's counters (the ledger keeps evidence with sorted keys). */
const RECAP_ORDER = ['ok', 'changed', 'unreachable', 'failed', 'skipped', 'rescued', 'ignored'];

/**
 * A finished (or still running) job for a person: a headline, then the
 * params, the failure's code and reason, and every member of the evidence
 * (an Ansible recap as `ok=5 changed=3 …`, multi-line text such as the
 * playbook's output tail as an indented block).
 */
export function formatJobOutcome(job: JobView): string {
  const took = job.finishedAt ? ` in ${seconds(Date.parse(job.finishedAt) - Date.parse(job.requestedAt))}` : '';
  const fields: [string, unknown][] = [['params', job.params]];
  if (job.state === 'failed') fields.push(['code', job.code], ['reason', job.reason]);
  for (const [key, value] of Object.entries(job.evidence ?? {})) fields.push([key, key === 'recap' ? inRecapOrder(value) : value]);
  const width = Math.max(...fields.map(([key]) => key.length));
  const lines = [`job ${job.jobId}: ${job.kind} on ${job.hostname} ${job.state}${took}`];
  for (const [key, value] of fields) {
    const text = render(value);
    if (text.includes('\n')) {
      lines.push(`  ${key}:`, ...lastLines(text).map((line) => `    | ${line}`));
    } else {
      lines.push(`  ${key.padEnd(width)}  ${text}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

function render(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (typeof value === 'string') return value.replace(/\s+$/, '');
  if (typeof value !== 'object') return String(value);
  const entries = Object.entries(value);
  if (!Array.isArray(value) && entries.every(([, member]) => member === null || typeof member !== 'object')) {
    return entries.length === 0 ? '-' : entries.map(([key, member]) => `${key}=${member ?? '-'}`).join(' ');
  }
  return JSON.stringify(value);
}

function inRecapOrder(recap: unknown): unknown {
  if (typeof recap !== 'object' || recap === null || Array.isArray(recap)) return recap;
  const rank = (key: string) => (RECAP_ORDER.includes(key) ? RECAP_ORDER.indexOf(key) : RECAP_ORDER.length);
  return Object.fromEntries(Object.entries(recap).sort(([a], [b]) => rank(a) - rank(b)));
}

function lastLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length <= MAX_BLOCK_LINES) return lines;
  return [`… ${lines.length - MAX_BLOCK_LINES} earlier line(s)`, ...lines.slice(-MAX_BLOCK_LINES)];
}

const seconds = (ms: number): string => (ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`);
