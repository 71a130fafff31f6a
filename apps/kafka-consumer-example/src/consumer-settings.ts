import { resolve } from 'node:path';
import { ConfigError, type Env, integerSetting, type KafkaConfig, loadKafkaConfig, nonEmpty } from '@ledger/config';

export interface ConsumerSettings {
  /** LEDGER_KAFKA_BROKERS and LEDGER_KAFKA_TOPIC_PREFIX: the same settings as the ledger's relay. */
  readonly kafka: KafkaConfig;
  /** EXAMPLE_CONSUMER_GROUP (inventory-replica): the consumer group; its committed offsets are where a restart resumes. */
  readonly groupId: string;
  /** EXAMPLE_CONSUMER_DB (./data/kafka-consumer-example.sqlite): the replica's SQLite file. */
  readonly dbFile: string;
  /** EXAMPLE_CONSUMER_STATE_FILE: when set, the replica's progress and inventory are written there as JSON after each flush. */
  readonly stateFile?: string;
  /** EXAMPLE_CONSUMER_QUIET_MS (200): how long the topic must stay quiet before what arrived is applied. */
  readonly quietMs: number;
}

export function loadConsumerSettings(env: Env = process.env, cwd = process.cwd()): ConsumerSettings {
  const kafka = loadKafkaConfig(env);
  if (kafka.brokers.length === 0) throw new ConfigError('LEDGER_KAFKA_BROKERS', 'required: the brokers the ledger publishes to (host:port,…)');
  const stateFile = nonEmpty(env.EXAMPLE_CONSUMER_STATE_FILE);
  return {
    kafka,
    groupId: nonEmpty(env.EXAMPLE_CONSUMER_GROUP) ?? 'inventory-replica',
    dbFile: resolve(cwd, nonEmpty(env.EXAMPLE_CONSUMER_DB) ?? 'data/kafka-consumer-example.sqlite'),
    stateFile: stateFile === undefined ? undefined : resolve(cwd, stateFile),
    quietMs: integerSetting(env, 'EXAMPLE_CONSUMER_QUIET_MS', 200, 1, 60_000),
  };
}
