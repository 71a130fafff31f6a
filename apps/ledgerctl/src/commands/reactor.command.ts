import type { Command } from 'commander';
import type { ParkedEvent, ParkedRetryOutcome, ReactorStatus } from '@ledger/processing';
import { CliError } from '../support/cli-error';
import { LedgerApiClient, type LedgerApiOptions, withLedgerApiOptions } from '../support/ledger-api-client';
import { cell, formatTable } from '../support/text-table';

type OutputOptions = LedgerApiOptions & { readonly json?: boolean };

/**
 * `reactor list`, `reactor parked NAME`, `reactor retry NAME POSITION`: the
 * reactors that act on the outside (Nova, Placement…), the events they
 * parked, and an operator's retry, through the running ledger's API
 * (/api/v1/reactors). A retry that fails again exits 3.
 */
export function registerReactorCommands(program: Command): void {
  const reactor = program.command('reactor').description('reactors that act outside the ledger: status, parked events, retry (a running ledger\'s API)');

  withLedgerApiOptions(reactor.command('list').description('every reactor: state, position, lag, parked, since when its outside is down').option('--json', 'print JSON')).action(
    async (options: OutputOptions) => {
      const { items } = await LedgerApiClient.fromOptions(options).request<{ items: ReactorStatus[] }>('GET', '/api/v1/reactors');
      process.stdout.write(options.json ? `${JSON.stringify(items)}\n` : formatReactorTable(items));
    },
  );

  withLedgerApiOptions(
    reactor.command('parked').description("a reactor's parked events, oldest first").argument('<name>', 'the reactor, e.g. nova-notifier').option('--json', 'print JSON'),
  ).action(async (name: string, options: OutputOptions) => {
    const { items } = await LedgerApiClient.fromOptions(options).request<{ items: ParkedEvent[] }>('GET', `/api/v1/reactors/${encodeURIComponent(name)}/parked`);
    process.stdout.write(options.json ? `${JSON.stringify(items)}\n` : formatParkedTable(items));
  });

  withLedgerApiOptions(
    reactor
      .command('retry')
      .description('retry a parked event once (admin)')
      .argument('<name>', 'the reactor')
      .argument('<position>', "the parked event's position (see `reactor parked`)")
      .option('--json', 'print JSON'),
  ).action(async (name: string, position: string, options: OutputOptions) => {
    const path = `/api/v1/reactors/${encodeURIComponent(name)}/parked/${encodeURIComponent(parsePosition(position))}/retry`;
    const result = await LedgerApiClient.fromOptions(options).request<ParkedRetryOutcome & { position: number }>('POST', path);
    process.stdout.write(options.json ? `${JSON.stringify(result)}\n` : `${describeRetry(name, result)}\n`);
    if (result.outcome === 'failed') process.exitCode = 3;
  });
}

export function parsePosition(text: string): string {
  if (!/^[1-9]\d{0,15}$/.test(text)) throw new CliError(`POSITION must be a positive integer, not ${JSON.stringify(text)}`, 2);
  return text;
}

export function describeRetry(name: string, result: ParkedRetryOutcome & { position: number }): string {
  switch (result.outcome) {
    case 'delivered':
      return `${name}: the event at position ${result.position} was delivered and is no longer parked`;
    case 'failed':
      return `${name}: the event at position ${result.position} failed again and stays parked: ${result.error}`;
    case 'requested':
      return `${name}: another ledger instance runs this reactor; it will retry position ${result.position} shortly (see \`reactor parked ${name}\`)`;
  }
}

export function formatReactorTable(reactors: readonly ReactorStatus[]): string {
  if (reactors.length === 0) return 'no reactors run (is LEDGER_NOVA_URL set?)\n';
  const rows = reactors.map((reactor) => [
    reactor.name,
    reactor.state,
    cell(reactor.position),
    cell(reactor.lag),
    cell(reactor.parked),
    cell(reactor.unavailableSince),
    cell(reactor.lastError),
  ]);
  return formatTable(['REACTOR', 'STATE', 'POSITION', 'LAG', 'PARKED', 'UNAVAILABLE SINCE', 'LAST ERROR'], rows);
}

export function formatParkedTable(parked: readonly ParkedEvent[]): string {
  if (parked.length === 0) return 'nothing parked\n';
  const rows = parked.map((event) => [
    cell(event.position),
    event.type,
    event.stream,
    cell(event.attempts),
    event.lastFailedAt,
    event.retryRequestedAt ? `(retry requested) ${event.error}` : event.error,
  ]);
  return formatTable(['POSITION', 'TYPE', 'STREAM', 'ATTEMPTS', 'LAST FAILED', 'ERROR'], rows);
}
