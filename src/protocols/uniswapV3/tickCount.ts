/** Lengths of the tick lists decoded on access (src/graph/parseSnapshotBytes.ts leaves them in the file's bytes). */
const lazyLengths = new WeakMap<object, number>();

/** Records that `pool`'s `ticks` is a getter decoding `count` ticks (called by the snapshot loader's fast path). */
export function noteLazyTicks(pool: object, count: number): void {
  lazyLengths.set(pool, count);
}

/** Number of ticks of a v3 snapshot pool, without decoding a lazily parsed list. */
export function tickCount(pool: { readonly ticks: ArrayLike<unknown> }): number {
  return lazyLengths.get(pool) ?? pool.ticks.length;
}
