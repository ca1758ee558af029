import { isIP } from 'node:net';

/** Decides whether the proxy at `address`, `hop` steps from the server, is trusted (Express's `trust proxy fn`). */
export type TrustProxy = (address: string, hop: number) => boolean;

/**
 * The caller's address as Express computes `req.ip`: walk X-Forwarded-For back from the nearest
 * hop while the hop is a trusted proxy. Socket connections need this too, or behind a load
 * balancer every socket sign-in would count against the balancer's address.
 */
export function clientAddress(
  remote: string,
  forwardedFor: string | string[] | undefined,
  trust: TrustProxy | undefined,
): string {
  if (!trust) return remote;
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? '');
  const hops = header
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .reverse();
  const chain = [remote, ...hops];
  for (let hop = 0; hop < chain.length - 1; hop += 1) {
    if (!trust(chain[hop] as string, hop)) return chain[hop] as string;
  }
  return chain[chain.length - 1] as string;
}

/**
 * The key an address is counted under in every per-address limit. IPv6 counts per /64: one
 * subscriber is usually given a whole /64 and may use any address in it, so counting each address
 * would hand an attacker billions of fresh counts. IPv4, and IPv4 written as IPv6 (::ffff:1.2.3.4,
 * as a dual-stack server reports it), counts per address. A call without an address shares one key.
 */
export function addressKey(address: string | undefined): string {
  if (!address) return 'unknown';
  // A zone id (fe80::1%eth0) names the server's interface, not the caller.
  const bare = address.replace(/%.*$/, '');
  const version = isIP(bare);
  if (version === 4) return bare;
  if (version !== 6) return address;
  const groups = ipv6Groups(bare);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return groups
      .slice(6)
      .flatMap((group) => [group >> 8, group & 0xff])
      .join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The key of the address a service call came from (`params.ip`, set by the transports and pages). */
export function callerAddressKey(params: object): string {
  const ip = 'ip' in params ? params.ip : undefined;
  return addressKey(typeof ip === 'string' ? ip : undefined);
}

/** The eight 16-bit groups of a valid IPv6 address, in any of its written forms. */
function ipv6Groups(address: string): number[] {
  // A dotted IPv4 tail stands for the last two groups.
  const text = address.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_tail, a: string, b: string, c: string, d: string) =>
    [(Number(a) << 8) | Number(b), (Number(c) << 8) | Number(d)].map((group) => group.toString(16)).join(':'),
  );
  const [head = '', tail] = text.split('::');
  const groups = (part: string) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}
