// Keeps webhooks off the server's own networks (docs/webhooks.md § Targets): a URL whose host is,
// or resolves to, an address that is not public (loopback, private, link-local, unique-local,
// CGNAT, multicast, reserved; IPv4 inside IPv6, Teredo's too, checked as IPv4) is refused when the
// webhook is made and at each delivery, where the check runs in the connection's own DNS lookup,
// so a name that resolves elsewhere between the check and the connection cannot slip through.
// WEBHOOK_ALLOW_PRIVATE=true lifts it (tests, a receiver on the same host).

import dns from 'node:dns';
import net from 'node:net';
import { AppError } from '../errors.js';

/** IPv4 ranges that are not public, with what they are. */
const V4_RANGES: ReadonlyArray<readonly [string, number, string]> = [
  ['0.0.0.0', 8, 'this network'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared (CGNAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

/** IPv6 ranges that are not public (those embedding IPv4 are checked by their IPv4 address instead). */
const V6_RANGES: ReadonlyArray<readonly [string, number, string]> = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['::', 96, 'IPv4-compatible'],
  ['100::', 64, 'discard'],
  ['2001:db8::', 32, 'documentation'],
  ['fc00::', 7, 'unique-local'],
  ['3fff::', 20, 'documentation'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
];

/**
 * Global unicast (2000::/3): the only IPv6 addresses the internet routes. Those outside it that the
 * ranges above do not name are not public either: the local-use NAT64 prefix 64:ff9b:1::/48, which
 * a site's translator maps to its private IPv4 networks, IPv4-translated ::ffff:0:0:0/96, and the
 * rest of ::/8 and the space not yet assigned.
 */
const GLOBAL_UNICAST = (() => {
  const list = new net.BlockList();
  list.addSubnet('2000::', 3, 'ipv6');
  return list;
})();

const lists = (() => {
  const make = (ranges: ReadonlyArray<readonly [string, number, string]>, family: 'ipv4' | 'ipv6') => ranges.map(([net0, prefix, what]) => {
    const list = new net.BlockList();
    list.addSubnet(net0, prefix, family);
    return { list, what };
  });
  return { v4: make(V4_RANGES, 'ipv4'), v6: make(V6_RANGES, 'ipv6') };
})();

/** The eight 16-bit groups of an IPv6 address (which net.isIPv6 accepted). */
function groupsOf(address: string): number[] {
  let text = address.split('%')[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') as [string, string] : [text, undefined];
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const left = part(head);
  const right = part(tail);
  return tail === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * The IPv4 address an IPv6 address carries (IPv4-mapped ::ffff:0:0/96, NAT64 64:ff9b::/96, 6to4
 * 2002::/16, Teredo 2001::/32), if any. Teredo's is its client's, where the packets go, in its last
 * 32 bits inverted (RFC 4380).
 */
function embeddedV4(address: string): string | undefined {
  const g = groupsOf(address);
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return v4(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return v4(g[6]!, g[7]!);
  if (g[0] === 0x2002) return v4(g[1]!, g[2]!);
  if (g[0] === 0x2001 && g[1] === 0) return v4(g[6]! ^ 0xffff, g[7]! ^ 0xffff);
  return undefined;
}

/** What makes an IP address unfit for a webhook ('loopback', 'private', …), or null for a public one. */
export function nonPublicKind(address: string): string | null {
  const family = net.isIP(address);
  if (family === 4) return lists.v4.find((r) => r.list.check(address, 'ipv4'))?.what ?? null;
  if (family !== 6) return 'not an IP address';
  const inner = embeddedV4(address);
  if (inner !== undefined) return nonPublicKind(inner);
  return lists.v6.find((r) => r.list.check(address, 'ipv6'))?.what ?? (GLOBAL_UNICAST.check(address, 'ipv6') ? null : 'non-global (outside 2000::/3)');
}

function forbidden(host: string, address: string, kind: string): AppError {
  const which = host === address ? `${address} is` : `${host} resolves to ${address},`;
  return new AppError('WEBHOOK_TARGET_FORBIDDEN', `The webhook's URL is refused: ${which} a ${kind} address, and webhooks are sent to public addresses only. Use a URL the internet can reach (set WEBHOOK_ALLOW_PRIVATE=true to allow private ones: on the server, and for orchard webhook create, in the command's environment too).`);
}

/** The host of a URL as an IP address or a name, without IPv6 brackets. */
const hostOf = (url: URL): string => url.hostname.replace(/^\[|\]$/g, '');

export type LookupAll = (host: string) => Promise<Array<{ address: string }>>;

const systemLookup: LookupAll = (host) => dns.promises.lookup(host, { all: true, verbatim: true });

/**
 * Refuses (WEBHOOK_TARGET_FORBIDDEN) a URL whose host is, or resolves to, an address that is not
 * public. A name that does not resolve now passes: it is checked again at each delivery.
 */
export async function checkTarget(url: URL, lookup: LookupAll = systemLookup): Promise<void> {
  const host = hostOf(url);
  if (net.isIP(host)) {
    const kind = nonPublicKind(host);
    if (kind) throw forbidden(host, host, kind);
    return;
  }
  let addresses: Array<{ address: string }>;
  try {
    addresses = await lookup(host);
  } catch {
    return;
  }
  for (const { address } of addresses) {
    const kind = nonPublicKind(address);
    if (kind) throw forbidden(host, address, kind);
  }
}

/**
 * A `lookup` for net.connect that fails a connection to a host resolving to a non-public address,
 * with the AppError of checkTarget; `checkTarget` must be called first for a host that is an IP
 * address, which connections do not look up.
 */
export function guardedLookup(): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true, verbatim: true }, (err, addresses) => {
      if (err) return (callback as (e: Error | null) => void)(err);
      const list = addresses as dns.LookupAddress[];
      for (const { address } of list) {
        const kind = nonPublicKind(address);
        if (kind) return (callback as (e: Error | null) => void)(forbidden(hostname, address, kind));
      }
      if ((options as { all?: boolean }).all) return (callback as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      const first = list[0]!;
      (callback as (e: null, a: string, f: number) => void)(null, first.address, first.family);
    });
  };
}
