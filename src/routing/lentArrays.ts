/**
 * Arrays lent to a call that reads them and keeps none (a fee estimate's members, a set's executors): one per length,
 * made on first use and never resized (setting an array's `length` is a runtime call that trims or grows its store,
 * ~5x the cost of a small allocation). The search runs these per set it weighs: reusing them keeps the per-set
 * temporaries off the young generation, whose scavenges cost more the larger the graph's old space.
 */
export type LentArrays<T> = T[][];

/** The lent array of length n of `arrays`: its elements are the last borrower's until written. */
export function lent<T>(arrays: LentArrays<T>, n: number): T[] {
  let a = arrays[n];
  if (a === undefined) {
    while (arrays.length < n) arrays.push(new Array(arrays.length));
    a = new Array(n);
    arrays[n] = a;
  }
  return a;
}
