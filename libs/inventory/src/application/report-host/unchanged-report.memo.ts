/**
 * Per host, the digest of the last report body that the full path found
 * unchanged, and the host's fingerprint it was checked against. Lets the
 * next byte-identical body be recognised without building, validating or
 * normalising it (ConfirmUnchangedReportHandler). In this process only: a
 * replica without an entry takes the full path once and remembers it.
 * Bounded like the host cache it sits beside; the least recently used entry goes.
 */
export class UnchangedReportMemo {
  private readonly entries = new Map<string, { bodyDigest: string; fingerprint: string }>();

  constructor(private readonly capacity = 20_000) {}

  /** The host fingerprint a body with this digest was found unchanged against, if it is the one remembered. */
  fingerprintFor(hostname: string, bodyDigest: string): string | undefined {
    const entry = this.entries.get(hostname);
    if (entry?.bodyDigest !== bodyDigest) return undefined;
    this.entries.delete(hostname);
    this.entries.set(hostname, entry);
    return entry.fingerprint;
  }

  remember(hostname: string, bodyDigest: string, fingerprint: string): void {
    this.entries.delete(hostname);
    this.entries.set(hostname, { bodyDigest, fingerprint });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
  }

  forget(hostname: string): void {
    this.entries.delete(hostname);
  }
}
