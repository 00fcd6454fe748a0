/**
 * How many of the first `length` entries of an ascending array are at most `x` (the index of the first entry above
 * it): the binary search over sorted initialized ticks that the tick counter, the tick source and the cold-slot count
 * share.
 */
export function countAtOrBelow(sorted: ArrayLike<number>, x: number, length: number = sorted.length): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
