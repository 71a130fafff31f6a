import { open } from 'node:fs/promises';

/**
 * Xid errors that say the GPU itself is in trouble (NVIDIA's Xid catalogue);
 * the rest (13, 31, 43…) are an application's faults and leave health alone.
 */
const CRITICAL_XIDS: Readonly<Record<number, { readonly health: 'degraded' | 'failed'; readonly meaning: string }>> = {
  48: { health: 'degraded', meaning: 'double-bit ECC error' },
  63: { health: 'degraded', meaning: 'ECC page retirement or row remapping' },
  64: { health: 'degraded', meaning: 'ECC page retirement or row remapping failed' },
  74: { health: 'degraded', meaning: 'NVLink error' },
  79: { health: 'failed', meaning: 'GPU has fallen off the bus' },
  92: { health: 'degraded', meaning: 'high single-bit ECC error rate' },
  94: { health: 'degraded', meaning: 'contained ECC error' },
  95: { health: 'failed', meaning: 'uncontained ECC error' },
  119: { health: 'failed', meaning: 'GSP RPC timeout' },
  120: { health: 'failed', meaning: 'GSP error' },
};

export interface XidFinding {
  /** The Xid: the health policy's cause (`{ kind: 'xid', code }`). */
  readonly xid: number;
  readonly health: 'degraded' | 'failed';
  readonly reason: string;
}

/** How much of the log's end is read: Xids older than that are history, and a heartbeat must stay cheap. */
const TAIL_BYTES = 256 * 1024;
const XID_LINE = /NVRM: Xid \(PCI:([0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2})\): (\d+)/g;

/**
 * The latest critical Xid per GPU slot (`0000:3b:00`) in the end of a
 * kernel log (kern.log, or a `journalctl -k` dump the operator points at).
 * An unreadable log yields nothing: Xids only ever add to health.
 */
export async function readCriticalXids(logPath: string): Promise<Map<string, XidFinding>> {
  let text: string;
  try {
    const file = await open(logPath, 'r');
    try {
      const { size } = await file.stat();
      const start = Math.max(0, size - TAIL_BYTES);
      const buffer = Buffer.alloc(size - start);
      await file.read(buffer, 0, buffer.length, start);
      text = buffer.toString('utf8');
    } finally {
      await file.close();
    }
  } catch {
    return new Map();
  }
  const findings = new Map<string, XidFinding>();
  for (const [, slot, code] of text.matchAll(XID_LINE)) {
    const critical = CRITICAL_XIDS[Number(code)];
    const key = slot.toLowerCase().replace(/^0{4}(?=[0-9a-f]{4}:)/, '');
    if (critical) findings.set(key, { xid: Number(code), health: critical.health, reason: `Xid ${code}: ${critical.meaning}` });
  }
  return findings;
}
