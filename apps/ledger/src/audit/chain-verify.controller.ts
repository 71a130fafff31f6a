import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Allow } from '@ledger/auth/nest';
import { dataFiles, type LedgerConfig } from '@ledger/config';
import { type AnchoredVerdict, EVENT_STORE, type EventStore, readCheckpointKeys, readCheckpointRecords, verifyAgainstRecords, verifyStoreLog } from '@ledger/eventstore';
import { LEDGER_CONFIG } from '../infrastructure/tokens';
import { ChainVerdictResponse } from './chain-verdict.response';

/**
 * The console's "verify the chain" (docs/audit.md): the same walk as
 * `ledgerctl audit verify` on the live store, against the checkpoints this
 * machine holds (the data dir's file and the published copy: accepted
 * rollbacks in them give up the checkpoints they cover) and the data dir's
 * key. One read of the whole log, in ranges on worker threads
 * (LEDGER_AUDIT_VERIFY_THREADS), so the event loop stays free: seconds on
 * millions of events, so it runs when an admin asks, never on a timer.
 */
@ApiTags('audit')
@Controller('api/v1/audit')
export class ChainVerifyController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
  ) {}

  @Get('verify')
  @Allow('admin')
  @ApiOperation({
    summary: "Check the whole log's hash chain and signed head checkpoints; names the first broken position",
    description: '`ok: false` (still 200) with `firstBreak` when the log was edited, rewritten or cut. An auditor who does not trust this server runs `ledgerctl audit verify --file` on an export with their own copy of the key.',
  })
  @ApiOkResponse({ type: ChainVerdictResponse })
  verify(): Promise<AnchoredVerdict> {
    const files = dataFiles(this.config);
    const records = readCheckpointRecords([files.checkpoints, this.config.checkpointPublishFile]);
    const publicKey = readCheckpointKeys(files.checkpointKey)?.publicKey;
    return verifyAgainstRecords(records, publicKey, (checkpoints) => verifyStoreLog(this.store, checkpoints, publicKey, { threads: this.config.auditVerifyThreads }));
  }
}
