// Which addresses a web fetch may connect to. A page named by the user or the model must not reach
// into this machine or its network (a router's admin page, a cloud's metadata service, a local dev
// server), so only public unicast addresses pass unless the user allows private ones.
import { BlockList, isIP } from 'node:net';

interface Range {
  net: string;
  prefix: number;
}

/** Each kind of address a fetch refuses, by the words a refusal uses. */
const KINDS: readonly { what: string; v4?: Range[]; v6?: Range[] }[] = [
  {
    what: 'an unspecified address',
    v4: [{ net: '0.0.0.0', prefix: 8 }],
    v6: [{ net: '::', prefix: 128 }],
  },
  {
    what: 'a loopback address (this machine)',
    v4: [{ net: '127.0.0.0', prefix: 8 }],
    v6: [{ net: '::1', prefix: 128 }],
  },
  {
    what: 'a private network address',
    v4: [
      { net: '10.0.0.0', prefix: 8 },
      { net: '172.16.0.0', prefix: 12 },
      { net: '192.168.0.0', prefix: 16 },
    ],
    v6: [{ net: 'fc00::', prefix: 7 }],
  },
  { what: 'a shared (carrier-grade NAT) address', v4: [{ net: '100.64.0.0', prefix: 10 }] },
  {
    what: 'a link-local address (where cloud metadata services live)',
    v4: [{ net: '169.254.0.0', prefix: 16 }],
    v6: [{ net: 'fe80::', prefix: 10 }],
  },
  { what: 'a multicast address', v4: [{ net: '224.0.0.0', prefix: 4 }], v6: [{ net: 'ff00::', prefix: 8 }] },
  {
    what: 'a reserved or special-purpose address',
    v4: [
      { net: '192.0.0.0', prefix: 24 },
      { net: '198.18.0.0', prefix: 15 },
      { net: '240.0.0.0', prefix: 4 },
    ],
    // IPv4-compatible (::a.b.c.d) and site-local (fec0::/10) forms are deprecated, never public.
    v6: [
      { net: '::', prefix: 96 },
      { net: 'fec0::', prefix: 10 },
    ],
  },
];

// Built on the first check, not when the extension loads (node:net's BlockList, a few milliseconds).
let lists: { what: string; list: BlockList }[] | undefined;
const listsOf = () =>
  (lists ??= KINDS.map((k) => {
    const list = new BlockList();
    for (const r of k.v4 ?? []) list.addSubnet(r.net, r.prefix, 'ipv4');
    for (const r of k.v6 ?? []) list.addSubnet(r.net, r.prefix, 'ipv6');
    return { what: k.what, list };
  }));

/** The eight 16-bit groups of an IPv6 address (with or without an embedded IPv4 tail). */
function ipv6Groups(address: string): number[] {
  let text = address.replace(/%.*$/, '');
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (v4) {
    const [a, b, c, d] = v4.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -v4.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const start = part(head);
  const end = part(tail);
  return [...start, ...Array<number>(8 - start.length - end.length).fill(0), ...end];
}

/** The IPv4 address an IPv6 one carries to reach IPv4 hosts (mapped, 6to4, NAT64), if any. */
function embeddedIpv4(address: string): string | undefined {
  const g = ipv6Groups(address);
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return v4(g[6]!, g[7]!);
  if (g[0] === 0x2002) return v4(g[1]!, g[2]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return v4(g[6]!, g[7]!);
  return undefined;
}

/** Why a fetch may not connect to `address` (an IP address), or undefined for a public one. */
export function blockedAddressReason(address: string): string | undefined {
  const family = isIP(address);
  if (family === 0) return `${address} is not an IP address`;
  if (family === 6) {
    const inner = embeddedIpv4(address);
    if (inner) return blockedAddressReason(inner);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  return listsOf().find((l) => l.list.check(address, type))?.what;
}
