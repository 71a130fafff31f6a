import { pino, type DestinationStream, type Level, type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { LedgerConfig } from '@ledger/config';
import { currentLogContext } from '@ledger/kernel';
import { REDACTED_PATHS } from './log-redaction';

/** `LEDGER_LOG_LEVEL` keeps Nest's names; pino calls `log` info and `verbose` trace. */
const PINO_LEVELS: Record<LedgerConfig['logLevel'], Level> = { error: 'error', warn: 'warn', log: 'info', debug: 'debug', verbose: 'trace' };

/**
 * The ledger's one logger: a JSON object a line on stdout (or pretty lines
 * for a person at a terminal), each carrying the ids of the request or
 * event being worked on (`withLogContext`), secrets in logged objects
 * redacted. `destination` replaces stdout (tests).
 */
export function createLedgerLog(config: Pick<LedgerConfig, 'logLevel' | 'logFormat' | 'instanceId'>, destination?: DestinationStream): Logger {
  const prettyOutput = config.logFormat === 'pretty' || (config.logFormat === 'auto' && process.stdout.isTTY === true);
  return pino(
    {
      level: PINO_LEVELS[config.logLevel],
      base: { instance: config.instanceId },
      timestamp: pino.stdTimeFunctions.isoTime,
      // Level names rather than numbers, so `jq 'select(.level == "error")'` reads as it means; pino-pretty wants the numbers.
      formatters: prettyOutput ? {} : { level: (label) => ({ level: label }) },
      redact: { paths: [...REDACTED_PATHS], censor: '[redacted]' },
      // A copy: pino merges the line's own fields into what mixin returns.
      mixin: () => ({ ...currentLogContext() }),
    },
    destination ?? (prettyOutput ? prettyStream() : pino.destination({ dest: 1, sync: true })),
  );
}

function prettyStream(): DestinationStream {
  return pretty({
    sync: true,
    colorize: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,instance,context',
    messageFormat: '{if context}[{context}] {end}{msg}',
  });
}
