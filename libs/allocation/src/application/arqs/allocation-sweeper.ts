import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { CommandContext } from '@ledger/eventstore';
import { ReleaseAttachHandleCommand } from '@ledger/inventory';
import { uuidV7 } from '@ledger/kernel';
import { ReleaseQuotaCommand } from '@ledger/quota';
import { ArqErrorCodes } from '../../domain/arq.errors';
import type { ArqState } from '../../domain/arq.state';
import { ALLOCATION_DIRECTORY, type AllocationDirectory } from './allocation-directory.port';
import { ArqHolds } from './arq-holds';
import { ArqStore } from './arq-store';
import { capacityConsumer } from './capacity-quota';

export interface SweepReport {
  readonly expiredBinds: number;
  readonly releasedClaims: number;
  readonly releasedReservations: number;
}

const SWEEPER_CONTEXT = (): CommandContext => ({
  actor: { user: 'ledger:allocation-sweeper', project: null, roles: ['service'] },
  correlationId: uuidV7(),
});

/**
 * Finishes what a crash left half done. A bind, unbind or delete is a chain
 * of idempotent steps on several streams (the request, its device, its
 * project's quota); a process that dies in between leaves a bind starting
 * forever, a claimed handle or a reservation nobody holds. Each sweep
 * compares those holds with the request streams (the authority) and
 * completes the chain; anything younger than `graceMs` is left to the
 * request that is still running it.
 */
@Injectable()
export class AllocationSweeper {
  constructor(
    @Inject(ALLOCATION_DIRECTORY) private readonly directory: AllocationDirectory,
    @Inject(ArqStore) private readonly arqs: ArqStore,
    @Inject(ArqHolds) private readonly holds: ArqHolds,
    @Inject(CommandBus) private readonly commands: CommandBus,
  ) {}

  async sweep(graceMs: number, now = Date.now()): Promise<SweepReport> {
    await this.directory.catchUp();
    const before = new Date(now - graceMs).toISOString();
    const context = SWEEPER_CONTEXT();
    return {
      expiredBinds: await this.expireBinds(before, context),
      releasedClaims: await this.releaseOrphanClaims(context),
      releasedReservations: await this.releaseOrphanReservations(before, context),
    };
  }

  /** A bind still starting after the grace period has lost its process: it fails, and gives back what it took. */
  private async expireBinds(before: string, context: CommandContext): Promise<number> {
    let expired = 0;
    for (const { uuid } of await this.directory.bindsStartedBefore(before)) {
      const state = await this.arqs.load(uuid);
      if (state.status !== 'live' || state.state !== 'BindStarted') continue;
      const reason = 'the bind did not finish in time (its process stopped); the request can be unbound and bound again';
      await this.arqs.run({ type: 'FailBind', uuid, code: ArqErrorCodes.BIND_FAILED, reason, at: new Date().toISOString() }, context);
      await this.holds.releaseBinding({ uuid, projectId: state.projectId, deviceUuid: state.binding?.deviceUuid ?? null }, context);
      expired++;
    }
    return expired;
  }

  /** A claim is held rightly only by a request that is binding or bound with that handle. */
  private async releaseOrphanClaims(context: CommandContext): Promise<number> {
    let released = 0;
    for (const claim of await this.directory.handleClaims()) {
      if (holdsHandle(await this.arqs.load(claim.arqUuid), claim.handleUuid)) continue;
      released += await this.commands.execute(new ReleaseAttachHandleCommand({ deviceUuid: claim.deviceUuid, arqUuid: claim.arqUuid }, context));
    }
    return released;
  }

  /** A unit reservation needs a live request; a capacity reservation a request that is binding or bound. */
  private async releaseOrphanReservations(before: string, context: CommandContext): Promise<number> {
    let released = 0;
    for (const { project, consumerId } of await this.directory.reservationsBefore(before)) {
      const arqUuid = consumerId.endsWith(':capacity') ? consumerId.slice(0, -':capacity'.length) : consumerId;
      const state = await this.arqs.load(arqUuid);
      const needed =
        consumerId === capacityConsumer(arqUuid)
          ? state.status === 'live' && (state.state === 'BindStarted' || state.state === 'Bound')
          : state.status === 'live';
      if (needed) continue;
      const result = await this.commands.execute(new ReleaseQuotaCommand({ project, consumerIds: [consumerId] }, context));
      released += result.appended;
    }
    return released;
  }
}

function holdsHandle(state: ArqState, handleUuid: string): boolean {
  if (state.status !== 'live') return false;
  if (state.state === 'BindStarted') return true; // its claim may have landed before its Bound
  return state.state === 'Bound' && state.attachHandle?.uuid === handleUuid;
}
