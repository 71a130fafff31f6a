/** A message as a consumer receives it (headers decoded as UTF-8). */
export interface ReceivedMessage {
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
  readonly key: string | null;
  readonly value: string;
  readonly headers: Readonly<Record<string, string>>;
}
