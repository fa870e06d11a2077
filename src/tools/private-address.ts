import { BlockList, isIP } from "node:net";

/**
 * Address ranges web_fetch does not reach by default, with the word the refusal uses. A fetch runs
 * in panto's own process, outside any sandbox, so without this a page (or the model) could make
 * panto read the user's own services: a dev server, a router's admin page, a cloud metadata
 * endpoint (169.254.169.254, fd00:ec2::254, 100.100.100.200 all fall in the ranges below).
 */
const RANGES: ReadonlyArray<{ prefix: string; bits: number; type: "ipv4" | "ipv6"; what: string }> = [
  { prefix: "0.0.0.0", bits: 8, type: "ipv4", what: "an unspecified ('this network') address" },
  { prefix: "10.0.0.0", bits: 8, type: "ipv4", what: "a private (RFC 1918) address" },
  { prefix: "100.64.0.0", bits: 10, type: "ipv4", what: "a shared (CGNAT, RFC 6598) address" },
  { prefix: "127.0.0.0", bits: 8, type: "ipv4", what: "a loopback address" },
  { prefix: "169.254.0.0", bits: 16, type: "ipv4", what: "a link-local (or cloud metadata) address" },
  { prefix: "172.16.0.0", bits: 12, type: "ipv4", what: "a private (RFC 1918) address" },
  { prefix: "192.0.0.0", bits: 24, type: "ipv4", what: "an IETF protocol address" },
  { prefix: "192.168.0.0", bits: 16, type: "ipv4", what: "a private (RFC 1918) address" },
  { prefix: "198.18.0.0", bits: 15, type: "ipv4", what: "a benchmarking address" },
  { prefix: "224.0.0.0", bits: 4, type: "ipv4", what: "a multicast address" },
  { prefix: "240.0.0.0", bits: 4, type: "ipv4", what: "a reserved (or broadcast) address" },
  // ::/96 holds the unspecified address ::, loopback ::1 and the old IPv4-compatible form.
  { prefix: "::", bits: 96, type: "ipv6", what: "an unspecified, loopback or IPv4-compatible address" },
  { prefix: "fc00::", bits: 7, type: "ipv6", what: "a unique-local (private) IPv6 address" },
  { prefix: "fe80::", bits: 10, type: "ipv6", what: "a link-local IPv6 address" },
  { prefix: "fec0::", bits: 10, type: "ipv6", what: "a site-local IPv6 address" },
  { prefix: "ff00::", bits: 8, type: "ipv6", what: "a multicast IPv6 address" },
];

const lists = RANGES.map((range) => {
  const list = new BlockList();
  list.addSubnet(range.prefix, range.bits, range.type);
  return { list, range };
});

/**
 * Why `address` (an IP literal) is not to be fetched by default: e.g. "a loopback address"; or
 * undefined for a public address. An IPv4 address carried inside IPv6 (::ffff:a.b.c.d, NAT64
 * 64:ff9b::/96, 6to4 2002::/16) is judged as that IPv4 address. Anything that is not an IP
 * literal is refused too ("not an IP address"), so a parsing gap never lets a request through.
 */
export function privateAddressReason(address: string): string | undefined {
  const bare = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
  const version = isIP(bare);
  if (version === 0) return "not an IP address";
  if (version === 6) {
    const carried = embeddedIpv4(bare);
    if (carried !== undefined) return privateAddressReason(carried);
  }
  const type = version === 4 ? "ipv4" : "ipv6";
  return lists.find(({ list, range }) => range.type === type && list.check(bare, type))?.range.what;
}

/** The IPv4 address inside an IPv4-mapped, NAT64 or 6to4 IPv6 address. */
function embeddedIpv4(address: string): string | undefined {
  const groups = ipv6Groups(address);
  if (groups === undefined) return undefined;
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  const nat64 =
    groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((group) => group === 0);
  if (mapped || nat64) return ipv4Of(groups[6] ?? 0, groups[7] ?? 0);
  if (groups[0] === 0x2002) return ipv4Of(groups[1] ?? 0, groups[2] ?? 0);
  return undefined;
}

function ipv4Of(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
}

/** The eight 16-bit groups of a valid IPv6 literal (a zone such as %eth0 dropped). */
function ipv6Groups(address: string): number[] | undefined {
  let text = address.split("%")[0] ?? "";
  // A trailing dotted IPv4 part stands for the last two groups.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted !== null) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const part = (side: string): number[] =>
    side === "" ? [] : side.split(":").map((hex) => Number.parseInt(hex, 16));
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return undefined;
  return [...left, ...new Array<number>(missing).fill(0), ...right];
}
