import { readFileSync } from 'node:fs';
import { isLedgerError } from '@ledger/kernel';
import { type QuotaPolicy, QuotaWhatIf } from '@ledger/quota';
import { CliError } from './cli-error';

/** Line and column of a character offset, for pointing at a JSON syntax error. */
function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${before[before.length - 1].length + 1}`;
}

/**
 * A policy file for `audit what-if --quota`: JSON, per project the body
 * `PUT /api/v1/quotas/{project}` takes, e.g. `{"p1": {"limits": {"FPGA": 2}}}`.
 * Any fault exits 2 naming the file and the line (syntax) or field (content).
 */
export function readQuotaPolicy(file: string): QuotaWhatIf {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`${file}: cannot read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, 2);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const offset = /position (\d+)/.exec((error as Error).message);
    const where = offset ? lineAndColumn(text, Number(offset[1])) : 'end of file';
    throw new CliError(`${file}: not JSON at ${where}: ${(error as Error).message}`, 2);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new CliError(`${file}: expected an object of projects, e.g. {"p1": {"limits": {"FPGA": 2}}}`, 2);
  }
  for (const [project, body] of Object.entries(parsed)) {
    if (typeof body !== 'object' || body === null || typeof (body as { limits?: unknown }).limits !== 'object' || (body as { limits?: unknown }).limits === null) {
      throw new CliError(`${file}: ${project}.limits: expected an object of RESOURCE: limit (null removes it)`, 2);
    }
  }
  try {
    return new QuotaWhatIf(parsed as QuotaPolicy);
  } catch (error) {
    if (!isLedgerError(error)) throw error;
    const path = (error.facts as { path?: string }).path;
    throw new CliError(`${file}: ${path ? `${path}: ` : ''}${error.message}`, 2);
  }
}
