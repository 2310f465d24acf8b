// Which IP addresses web_fetch may connect to (the SSRF guard). Only global unicast addresses
// are public; loopback, private, link-local, CGNAT, ULA, multicast, documentation and reserved
// ranges are refused unless `web.allow_private` lists them. IPv6 forms that carry an IPv4
// address (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16, IPv4-compatible ::a.b.c.d)
// are judged by that IPv4 address. Anything that does not parse as an address is refused:
// the guard fails closed.
import { inRange, parseAddress, parseRange, type AddressRange } from "../util/ip-address";

export type { AddressRange };

export type AddressVerdict = { public: true } | { public: false; reason: string };

/** IPv4 ranges that are not the public internet (RFC 6890 and friends). */
const IPV4_SPECIAL: [string, string][] = [
  ["0.0.0.0/8", "this network"],
  ["10.0.0.0/8", "private network"],
  ["100.64.0.0/10", "carrier-grade NAT"],
  ["127.0.0.0/8", "loopback"],
  ["169.254.0.0/16", "link-local (cloud metadata lives here)"],
  ["172.16.0.0/12", "private network"],
  ["192.0.0.0/24", "IETF protocol assignments"],
  ["192.0.2.0/24", "documentation"],
  ["192.88.99.0/24", "6to4 relay anycast"],
  ["192.168.0.0/16", "private network"],
  ["198.18.0.0/15", "benchmarking"],
  ["198.51.100.0/24", "documentation"],
  ["203.0.113.0/24", "documentation"],
  ["224.0.0.0/4", "multicast"],
  ["240.0.0.0/4", "reserved"],
];

/** IPv6 ranges refused inside 2000::/3 (everything outside 2000::/3 is refused anyway). */
const IPV6_SPECIAL: [string, string][] = [
  ["2001::/32", "Teredo tunnel"],
  ["2001:2::/48", "benchmarking"],
  ["2001:10::/28", "ORCHID"],
  ["2001:20::/28", "ORCHID"],
  ["2001:db8::/32", "documentation"],
  ["3fff::/20", "documentation"],
];

const ipv4Special = IPV4_SPECIAL.map(([cidr, reason]) => ({ range: parseRange(cidr), reason }));
const ipv6Special = IPV6_SPECIAL.map(([cidr, reason]) => ({ range: parseRange(cidr), reason }));
const GLOBAL_UNICAST = parseRange("2000::/3");

/** Classifies one address (no brackets). `allowed` are the user's `web.allow_private` ranges. */
export function classifyAddress(address: string, allowed: readonly AddressRange[] = []): AddressVerdict {
  const bytes = parseAddress(address);
  if (!bytes) return { public: false, reason: `"${address}" is not an IP address Hermes can classify` };
  if (allowed.some((range) => inRange(bytes, range))) return { public: true };
  if (bytes.length === 16) {
    const embedded = embeddedIpv4(bytes);
    if (embedded) {
      // The user may allow the IPv4 range and connect through its mapped form.
      if (allowed.some((range) => inRange(embedded.v4, range))) return { public: true };
      const inner = classifyIpv4(embedded.v4);
      return inner.public ? { public: false, reason: `${embedded.kind} address (connects to ${formatIpv4(embedded.v4)})` } : { public: false, reason: `${embedded.kind} form of a ${inner.reason} address` };
    }
    if (!inRange(bytes, GLOBAL_UNICAST)) return { public: false, reason: ipv6ReasonOutsideGlobal(bytes) };
    const special = ipv6Special.find((entry) => inRange(bytes, entry.range));
    return special ? { public: false, reason: special.reason } : { public: true };
  }
  return classifyIpv4(bytes);
}

function classifyIpv4(bytes: Uint8Array): AddressVerdict {
  if (bytes.every((byte) => byte === 255)) return { public: false, reason: "broadcast" };
  const special = ipv4Special.find((entry) => inRange(bytes, entry.range));
  return special ? { public: false, reason: special.reason } : { public: true };
}

/**
 * Mapped, IPv4-compatible, NAT64 and 6to4 addresses reach an IPv4 host. They are refused even
 * when that IPv4 address is public (a page has no reason to use them; DNS does not return them),
 * and the reason names the IPv4 range when it is a private one. An allowed IPv4 range allows them.
 */
function embeddedIpv4(bytes: Uint8Array): { v4: Uint8Array; kind: string } | undefined {
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0);
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return { v4: bytes.slice(12), kind: "IPv4-mapped IPv6" };
  if (zeros(0, 12) && !zeros(12, 16) && !(zeros(12, 15) && bytes[15] === 1)) return { v4: bytes.slice(12), kind: "IPv4-compatible IPv6" };
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b) return { v4: bytes.slice(12), kind: "NAT64" };
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return { v4: bytes.slice(2, 6), kind: "6to4" };
  return undefined;
}

function ipv6ReasonOutsideGlobal(bytes: Uint8Array): string {
  if (bytes.every((byte) => byte === 0)) return "unspecified address";
  if (bytes.slice(0, 15).every((byte) => byte === 0) && bytes[15] === 1) return "loopback";
  if ((bytes[0]! & 0xfe) === 0xfc) return "unique local (private) IPv6";
  if (bytes[0] === 0xfe && (bytes[1]! & 0xc0) === 0x80) return "link-local IPv6";
  if (bytes[0] === 0xfe && (bytes[1]! & 0xc0) === 0xc0) return "site-local IPv6";
  if (bytes[0] === 0xff) return "multicast";
  return "not a global unicast IPv6 address";
}

function formatIpv4(bytes: Uint8Array): string {
  return Array.from(bytes).join(".");
}
