import { DEFAULT_TOPIC_PREFIX } from '@ledger/contracts';
import { ConfigError } from './config-error';
import { type Env, nonEmpty } from './env-values';

/** How the ledger relays its events to Kafka (docs/kafka.md). */
export interface KafkaConfig {
  /**
   * LEDGER_KAFKA_BROKERS: the bootstrap brokers, `host:port` separated by
   * commas. Unset (empty): the relay is off, and the ledger says so at start.
   */
  readonly brokers: readonly string[];
  /** LEDGER_KAFKA_TOPIC_PREFIX (accelerator-ledger): topics are `<prefix>.<context>.v1` and `<prefix>.checkpoints.v1`. */
  readonly topicPrefix: string;
}

const BROKER = /^[A-Za-z0-9.[\]:-]+:\d{1,5}$/;
/** Kafka's legal topic characters, leaving room for `.<context>.v1` within its 249-character limit. */
const TOPIC_PREFIX = /^[A-Za-z0-9._-]{1,200}$/;

export function loadKafkaConfig(env: Env): KafkaConfig {
  const brokers = (nonEmpty(env.LEDGER_KAFKA_BROKERS) ?? '').split(',').map((broker) => broker.trim()).filter((broker) => broker !== '');
  const invalid = brokers.find((broker) => !BROKER.test(broker));
  if (invalid !== undefined) throw new ConfigError('LEDGER_KAFKA_BROKERS', `"${invalid}" is not host:port`);
  const topicPrefix = nonEmpty(env.LEDGER_KAFKA_TOPIC_PREFIX) ?? DEFAULT_TOPIC_PREFIX;
  if (!TOPIC_PREFIX.test(topicPrefix)) throw new ConfigError('LEDGER_KAFKA_TOPIC_PREFIX', `"${topicPrefix}" must be 1-200 of A-Z a-z 0-9 . _ -`);
  return { brokers, topicPrefix };
}
