import { Inject, Optional } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AggregateCache, EVENT_STORE, loadAggregate, type EventStore, STREAM_FRESHNESS, type StreamFreshness } from '@ledger/eventstore';
import { hostInventoryDecider } from '../../domain/host-inventory.decider';
import type { HostInventoryState } from '../../domain/host-inventory.state';
import { hostStream } from '../../domain/streams';
import type { InventoryCommandResult } from '../inventory-command.result';
import { HOST_INVENTORY_CACHE, UNCHANGED_REPORT_MEMO } from '../inventory.tokens';
import { ConfirmUnchangedReportCommand } from './confirm-unchanged-report.command';
import type { UnchangedReportMemo } from './unchanged-report.memo';

/**
 * The unchanged report's short cut. The same bytes were validated and
 * decided unchanged before against a host whose fingerprint was F; the
 * decider is a pure function of the report and of the host's state, whose
 * devices the fingerprint covers, so against a host whose fingerprint is
 * still F it would decide "unchanged" again. The host is read as the full
 * path reads it for a decision to append nothing: the cached state plus the
 * stream's tail, so a change another replica appended meanwhile is seen; the
 * tail is not read when the process's StreamVersionWatch knows the stream
 * has not moved since (docs/agent-protocol.md, "Unchanged reports").
 */
@CommandHandler(ConfirmUnchangedReportCommand)
export class ConfirmUnchangedReportHandler implements ICommandHandler<ConfirmUnchangedReportCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(HOST_INVENTORY_CACHE) private readonly cache: AggregateCache<HostInventoryState>,
    @Inject(UNCHANGED_REPORT_MEMO) private readonly memo: UnchangedReportMemo,
    @Optional() @Inject(STREAM_FRESHNESS) private readonly freshness?: StreamFreshness,
  ) {}

  async execute({ hostname, bodyDigest }: ConfirmUnchangedReportCommand): Promise<InventoryCommandResult | undefined> {
    const fingerprint = this.memo.fingerprintFor(hostname, bodyDigest);
    if (fingerprint === undefined) return undefined;
    const { state, version } = await loadAggregate(this.store, hostStream(hostname), hostInventoryDecider, this.cache, this.freshness);
    if (state.hostname === null || state.fingerprint !== fingerprint) return undefined;
    return { appended: 0, position: undefined, version, eventTypes: [] };
  }
}
