import type { Command } from 'commander';
import type { WorkflowPage, WorkflowStepView, WorkflowView } from '@ledger/workflows';
import { CliError } from '../support/cli-error';
import { type LedgerApiClient, LedgerApiClient as Client, type LedgerApiOptions, withLedgerApiOptions } from '../support/ledger-api-client';
import { cell, formatTable } from '../support/text-table';

/** Exit code when a workflow waited for ended compensated or failed (as a failed job's). */
export const WORKFLOW_NOT_COMPLETED_EXIT_CODE = 3;
const POLL_MS = 500;

export type WorkflowDetail = WorkflowView & { steps: WorkflowStepView[] };
export type WorkflowReportOptions = LedgerApiOptions & { readonly json?: boolean; readonly wait?: boolean; readonly status?: string; readonly reason?: string; readonly arq?: string };

export const instancePath = (name: string, id: string) => `/api/v1/workflows/${encodeURIComponent(name)}/${encodeURIComponent(id)}`;

/**
 * `workflow list|show|cancel|retry` through the running ledger's API
 * (/api/v1/workflows, docs/workflows.md). `--wait` follows an instance
 * until it ends, a progress line on stderr; exit 3 unless it completed.
 */
export function registerWorkflowCommands(program: Command): void {
  const workflow = program.command('workflow').description("durable workflows (bind, provisioning): list, show a step history, cancel, retry (a running ledger's API)");

  withLedgerApiOptions(
    workflow
      .command('list')
      .description('instances, newest first')
      .argument('[name]', 'only this workflow')
      .option('--status <status>', 'running, completed, compensated or failed')
      .option('--arq <uuid>', 'only those that work on this accelerator request (its binds)')
      .option('--json', 'print JSON'),
  ).action(async (name: string | undefined, options: WorkflowReportOptions) => {
    const query = new URLSearchParams({ ...(name ? { name } : {}), ...(options.status ? { status: options.status } : {}), ...(options.arq ? { arq: options.arq } : {}) });
    const page = await Client.fromOptions(options).request<WorkflowPage>('GET', `/api/v1/workflows?${query}`);
    process.stdout.write(options.json ? `${JSON.stringify(page.items)}\n` : formatWorkflowTable(page.items));
  });

  withLedgerApiOptions(
    workflow.command('show').description('one instance: each step and compensation').argument('<name>').argument('<id>').option('--wait', 'follow it until it ends; exit 3 unless completed').option('--json', 'print JSON'),
  ).action(async (name: string, id: string, options: WorkflowReportOptions) => {
    const client = Client.fromOptions(options);
    await reportWorkflow(client, name, id, options, await client.request<WorkflowDetail>('GET', instancePath(name, id)));
  });

  for (const [verb, description] of [
    ['cancel', 'cancel a running instance: it compensates what it did (admin)'],
    ['retry', 'retry a failed instance from where it stopped (admin)'],
  ] as const) {
    const command = workflow.command(verb).description(description).argument('<name>').argument('<id>').option('--wait', 'follow it until it ends; exit 3 unless completed').option('--json', 'print JSON');
    if (verb === 'cancel') command.option('--reason <text>', 'recorded with the cancel');
    withLedgerApiOptions(command).action(async (name: string, id: string, options: WorkflowReportOptions) => {
      const client = Client.fromOptions(options);
      const body = verb === 'cancel' ? { ...(options.reason ? { reason: options.reason } : {}) } : undefined;
      const { position } = await client.request<{ position: number }>('POST', `${instancePath(name, id)}/${verb}`, body);
      const headers = { 'x-ledger-min-position': String(position) };
      await reportWorkflow(client, name, id, options, await client.request<WorkflowDetail>('GET', instancePath(name, id), undefined, { headers }));
    });
  }
}

/** Prints an instance (after following it to its end with `--wait`); exit 3 when it waited and the instance did not complete. */
export async function reportWorkflow(client: Pick<LedgerApiClient, 'request'>, name: string, id: string, options: WorkflowReportOptions, first: WorkflowDetail): Promise<void> {
  const view = options.wait ? await followWorkflow(client, name, id, first) : first;
  process.stdout.write(options.json ? `${JSON.stringify(view)}\n` : formatWorkflow(view));
  if (options.wait && view.status !== 'completed') throw new CliError(`workflow ${name} ${id} ended ${view.status}${view.reason ? `: ${view.reason}` : ''}`, WORKFLOW_NOT_COMPLETED_EXIT_CODE);
}

/** Polls until the instance is no longer running; a line per change (redrawn in place on a terminal) on stderr. */
export async function followWorkflow(
  client: Pick<LedgerApiClient, 'request'>,
  name: string,
  id: string,
  first: WorkflowDetail,
  write: (text: string) => void = (text) => process.stderr.write(text),
  tty = Boolean(process.stderr.isTTY),
  sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
): Promise<WorkflowDetail> {
  let view = first;
  let last = '';
  for (;;) {
    const line = progressLine(view);
    if (line !== last) write(tty ? `\r${line}\x1b[K` : `${line}\n`);
    last = line;
    if (view.status !== 'running') {
      if (tty) write('\n');
      return view;
    }
    await sleep(POLL_MS);
    view = await client.request<WorkflowDetail>('GET', instancePath(name, id));
  }
}

/** `bind 1f…: running, step claim (do), attempt 2` — what changed is what a person watches. */
export function progressLine(view: WorkflowDetail): string {
  const current = view.steps.find((step) => step.step === view.currentStep && step.phase === view.currentPhase);
  const doing = view.currentStep ? `, step ${view.currentStep} (${view.currentPhase})${current && current.attempts > 1 ? `, attempt ${current.attempts}` : ''}` : '';
  return `${view.name} ${view.id}: ${view.status}${doing}`;
}

export function formatWorkflowTable(views: readonly WorkflowView[]): string {
  if (views.length === 0) return 'no workflow instances\n';
  const rows = views.map((view) => [view.name, view.id, cell(view.subject), view.status, cell(view.currentStep), view.startedAt, cell(view.endedAt), cell(view.reason)]);
  return formatTable(['WORKFLOW', 'ID', 'SUBJECT', 'STATUS', 'STEP', 'STARTED', 'ENDED', 'REASON'], rows);
}

export function formatWorkflow(view: WorkflowDetail): string {
  const head = [`workflow ${view.name} ${view.id}${view.subject ? ` on ${view.subject}` : ''}: ${view.status}${view.reason ? ` (${view.reason})` : ''}`];
  for (const entry of view.unresolved) head.push(`  could not undo ${entry.step}: ${entry.reason}`);
  const rows = view.steps.map((step) => [
    step.step,
    step.phase,
    step.status,
    cell(step.attempts),
    cell(step.durationMs === null ? null : `${step.durationMs} ms`),
    step.reason ?? (step.evidence === null || step.evidence === undefined ? '-' : JSON.stringify(step.evidence)),
  ]);
  return `${head.join('\n')}\n${view.steps.length === 0 ? '' : formatTable(['STEP', 'PHASE', 'STATUS', 'ATTEMPTS', 'TOOK', 'EVIDENCE / REASON'], rows)}`;
}
