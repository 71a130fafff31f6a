/** Domain (4 hex digits, up to 8 behind VMD bridges), bus, device (0–1f), function (0–7): the inventory's rule. */
const PCI_ADDRESS = /^([0-9a-f]{4,8}):([0-9a-f]{2}):([01][0-9a-f])\.([0-7])$/;

export interface PciAddressParts {
  readonly domain: number;
  readonly bus: number;
  readonly device: number;
  readonly function: number;
}

/** `0000:3b:00.0` → its parts; undefined when the text is not a PCI address. Case-insensitive. */
export function parsePciAddress(text: string): PciAddressParts | undefined {
  const match = PCI_ADDRESS.exec(text.trim().toLowerCase());
  if (!match) return undefined;
  const [, domain, bus, device, fn] = match;
  return { domain: parseInt(domain, 16), bus: parseInt(bus, 16), device: parseInt(device, 16), function: parseInt(fn, 16) };
}

/** The canonical form the ledger keys devices by: lower case, a 4-digit domain unless it needs more. */
export function formatPciAddress(parts: PciAddressParts): string {
  const hex = (value: number, width: number) => value.toString(16).padStart(width, '0');
  return `${hex(parts.domain, 4)}:${hex(parts.bus, 2)}:${hex(parts.device, 2)}.${parts.function.toString(16)}`;
}

/** `00000000:3B:00.0` (nvidia-smi's form) → `0000:3b:00.0`; undefined when not a PCI address. */
export function normalizePciAddress(text: string): string | undefined {
  const parts = parsePciAddress(text);
  return parts && formatPciAddress(parts);
}

/** `0000:d8:00.1` → `0000:d8:00`: the functions of one physical card share it. */
export function pciSlot(address: string): string {
  return address.slice(0, address.lastIndexOf('.'));
}
