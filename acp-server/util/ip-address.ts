// IP addresses and CIDR ranges as bytes: the strict parser the SSRF guard (security/private-network.ts)
// and config's web.allow_private share. Strict on purpose: only dotted quads with four decimal
// parts and standard IPv6 text are addresses; every other notation is "not an address".
import { isIPv4, isIPv6 } from "node:net";

/** One range: the address bytes (4 or 16) and the prefix length in bits. */
export interface AddressRange {
  bytes: Uint8Array;
  prefix: number;
  /** As written in config, for messages. */
  text: string;
}

/** "10.0.0.0/8", "127.0.0.1", "::1", "fd00::/8" → a range; throws on anything else. */
export function parseRange(text: string): AddressRange {
  const [address = "", prefixText, ...rest] = text.trim().split("/");
  const bytes = parseAddress(address);
  if (!bytes || rest.length > 0) throw new Error(`"${text}" is not an IP address or CIDR range`);
  const bits = bytes.length * 8;
  const prefix = prefixText === undefined ? bits : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > bits) throw new Error(`"${text}" has a bad prefix length (0–${bits})`);
  return { bytes, prefix, text: text.trim() };
}

export function inRange(bytes: Uint8Array, range: AddressRange): boolean {
  if (bytes.length !== range.bytes.length) return false;
  let left = range.prefix;
  for (let i = 0; left > 0; i++, left -= 8) {
    const mask = left >= 8 ? 0xff : (0xff << (8 - left)) & 0xff;
    if ((bytes[i]! & mask) !== (range.bytes[i]! & mask)) return false;
  }
  return true;
}

/**
 * Dotted-quad IPv4 (exactly four decimal parts, no leading zeros: "0x7f.1" or "017.0.0.1" are
 * not addresses here) or IPv6 as Node's net module accepts it (no zone ids). Else undefined.
 */
export function parseAddress(text: string): Uint8Array | undefined {
  if (isIPv4(text)) {
    const parts = text.split(".");
    if (parts.some((part) => part.length > 1 && part.startsWith("0"))) return undefined;
    return Uint8Array.from(parts.map(Number));
  }
  if (!isIPv6(text) || text.includes("%")) return undefined;
  // A trailing dotted IPv4 part becomes its two hex groups, so only one form is parsed below.
  const hex = text.toLowerCase().replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_match, a: string, b: string, c: string, d: string) => {
    const byte = (part: string) => Number(part);
    return `${((byte(a) << 8) | byte(b)).toString(16)}:${((byte(c) << 8) | byte(d)).toString(16)}`;
  });
  const halves = hex.split("::");
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (groups.some((group) => !/^[0-9a-f]{1,4}$/.test(group))) return undefined;
  const bytes = new Uint8Array(16);
  groups.forEach((group, i) => {
    const word = parseInt(group, 16);
    bytes[i * 2] = word >> 8;
    bytes[i * 2 + 1] = word & 0xff;
  });
  return bytes;
}

