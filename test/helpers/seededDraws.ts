/** Seeded draws of bigints and choices from one seeded generator (test/helpers/seededRandom.ts). */
export function seededDraws(random: () => number) {
  /** A uniform bigint in [0, n) for n >= 1 (48 random bits at a time). */
  function below(n: bigint): bigint {
    let v = 0n;
    let range = 1n;
    while (range < n * 1024n) {
      v = v * 2n ** 48n + BigInt(Math.floor(random() * 2 ** 48));
      range *= 2n ** 48n;
    }
    return v % n;
  }
  const between = (lo: bigint, hi: bigint): bigint => lo + below(hi - lo + 1n);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  return { below, between, pick };
}
