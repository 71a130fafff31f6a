import { hash } from 'node:crypto';
import { formatUuid } from './uuid-v7';

/** RFC 4122 namespace for DNS names, the one Cyborg uses for resource provider UUIDs. */
export const NAMESPACE_DNS = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';

/**
 * The ledger's own namespace for identities derived from what agents report
 * (device = host + PCI address, deployable = device + name, handle = deployable
 * + address). Derivation keeps identities stable across reports and restarts.
 */
export const NAMESPACE_LEDGER = '0196b3c2-5a1e-7c3d-9f00-4c1ed6e7a001';

/** Namespaces are a handful of constants: their bytes are parsed once. */
const namespaceBytes = new Map<string, Buffer>();

/**
 * One-shot `hash` over namespace bytes + name: a rebuild derives an id for
 * every attribute and handle it writes, and a `createHash` object costs
 * several times the digest itself.
 */
function nameBasedUuid(algorithm: 'md5' | 'sha1', version: number, namespace: string, name: string): string {
  let prefix = namespaceBytes.get(namespace);
  if (prefix === undefined) namespaceBytes.set(namespace, (prefix = Buffer.from(namespace.replace(/-/g, ''), 'hex')));
  const input = Buffer.allocUnsafe(prefix.length + Buffer.byteLength(name, 'utf8'));
  prefix.copy(input, 0);
  input.write(name, prefix.length, 'utf8');
  const bytes = hash(algorithm, input, 'buffer').subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | (version << 4);
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  return formatUuid(bytes);
}

/** UUIDv5 (SHA-1), for the ledger's derived identities. */
export const uuidV5 = (namespace: string, name: string): string => nameBasedUuid('sha1', 5, namespace, name);

/** UUIDv3 (MD5): Python's `uuid.uuid3`, which Cyborg uses for Placement provider UUIDs. */
export const uuidV3 = (namespace: string, name: string): string => nameBasedUuid('md5', 3, namespace, name);
