/** Decides whether the proxy at `address`, `hop` steps from the server, is trusted (Express's `trust proxy fn`). */
export type TrustProxy = (address: string, hop: number) => boolean;

/**
 * The caller's address as Express computes `req.ip`: walk X-Forwarded-For back from the nearest
 * hop while the hop is a trusted proxy. Socket connections need this too, or behind a load
 * balancer every socket sign-in would count against the balancer's address.
 */
export function clientAddress(remote: string, forwardedFor: string | string[] | undefined, trust: TrustProxy | undefined): string {
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
