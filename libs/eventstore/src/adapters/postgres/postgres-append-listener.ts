import { Client, type ClientConfig } from 'pg';

/** The channel `ledger_append` notifies on; the payload is the schema written to. */
const CHANNEL = 'ledger_appended';

/**
 * LISTENs on a dedicated connection (a pooled one would be handed to other
 * queries) and calls `onAppend` when any replica commits to this schema. If
 * the connection drops, waiters still wake by their timeout, and the next
 * `ensureListening` reconnects.
 */
export class PostgresAppendListener {
  private client: Client | undefined;
  private connecting: Promise<void> | undefined;
  private closed = false;
  /** Counts the connections that listened: notifications sent while none did are lost, so each new one is a new epoch. */
  private connections = 0;

  constructor(
    private readonly config: ClientConfig,
    private readonly schema: string,
    private readonly onAppend: () => void,
  ) {}

  ensureListening(): Promise<void> {
    if (this.closed || this.client) return Promise.resolve();
    this.connecting ??= this.connect().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  /** The current connection's number while it listens; undefined while none does (see EventStore.announcementEpoch). */
  epoch(): number | undefined {
    return this.client === undefined ? undefined : this.connections;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.connecting?.catch(() => undefined);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new Client(this.config);
    const drop = (): void => {
      if (this.client === client) this.client = undefined;
    };
    client.on('error', drop);
    client.on('end', drop);
    client.on('notification', (message) => {
      if (message.channel === CHANNEL && message.payload === this.schema) this.onAppend();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.connections++;
    this.client = client;
  }
}
