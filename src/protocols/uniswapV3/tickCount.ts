/**
 * How many ticks a pool's lazily decoded tick list holds, or undefined for a pool whose `ticks` is not one (set by
 * src/graph/parseSnapshotBytes.ts, which leaves the lists in the file's bytes and knows each one's length).
 */
let lazyLength: (pool: object) => number | undefined = () => undefined;

/** Tells tickCount where the lengths of the tick lists decoded on access are (called once by the snapshot loader). */
export function countLazyTicksWith(lengthOf: (pool: object) => number | undefined): void {
  lazyLength = lengthOf;
}

/** Number of ticks of a v3 snapshot pool, without decoding a lazily parsed list. */
export function tickCount(pool: { readonly ticks: ArrayLike<unknown> }): number {
  return lazyLength(pool) ?? pool.ticks.length;
}
