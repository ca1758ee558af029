/*
 * How one ad is picked among those that may be shown (decision 057). Two steps, each ad on its own
 * and then together:
 *
 * 1. Each ad takes part in the pick with its `probability` (a percentage), independently of the
 *    others: an ad at 30 % is left out of seven picks in ten whatever else is shown.
 * 2. Among the ads that take part, one is chosen with chance weight_i / Σ weight.
 *
 * When no ad takes part, nothing is shown. So with one ad at 30 %, a placement shows it in 30 % of
 * picks and nothing in the rest; with several at 100 %, their shares are their weights' shares.
 * `shares` works the exact chances out, which the tests hold the picks to.
 */

export interface Candidate {
  id: string;
  weight: number;
  /** 0 to 100. */
  probability: number;
}

/** A random source: a number in [0, 1), `Math.random` or a seeded one in tests. */
export type RandomSource = () => number;

/**
 * One pick among `candidates`, or null when none takes part. `excluded` ads (capped for the
 * device) neither take part nor count.
 */
export function pickAd<C extends Candidate>(
  candidates: readonly C[],
  random: RandomSource,
  excluded?: ReadonlySet<string>,
): C | null {
  let total = 0;
  const taking: C[] = [];
  for (const candidate of candidates) {
    if (excluded?.has(candidate.id) || candidate.weight <= 0) continue;
    if (candidate.probability >= 100 || random() * 100 < candidate.probability) {
      taking.push(candidate);
      total += candidate.weight;
    }
  }
  if (taking.length === 0) return null;
  let point = random() * total;
  for (const candidate of taking) {
    point -= candidate.weight;
    if (point < 0) return candidate;
  }
  return taking[taking.length - 1] ?? null;
}

/**
 * The exact chance of each ad being picked, and of none (`null`), by going through every set of
 * ads that may take part: for the tests and small lists (2^n sets; n ≤ 16).
 */
export function shares(candidates: readonly Candidate[]): { byId: Map<string, number>; none: number } {
  if (candidates.length > 16) throw new Error('shares: at most 16 candidates');
  const byId = new Map<string, number>(candidates.map((c) => [c.id, 0]));
  let none = 0;
  for (let set = 0; set < 1 << candidates.length; set += 1) {
    let chance = 1;
    let total = 0;
    candidates.forEach((c, i) => {
      const p = Math.min(Math.max(c.probability, 0), 100) / 100;
      const takes = (set & (1 << i)) !== 0;
      chance *= takes ? p : 1 - p;
      if (takes) total += c.weight;
    });
    if (chance === 0) continue;
    if (total === 0) {
      none += chance;
      continue;
    }
    candidates.forEach((c, i) => {
      if (set & (1 << i)) byId.set(c.id, (byId.get(c.id) ?? 0) + (chance * c.weight) / total);
    });
  }
  return { byId, none };
}

/** A seeded random source (mulberry32): the same seed, the same picks. */
export function seededRandom(seed: number): RandomSource {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
