/**
 * The positions 0..n-1 in a stable order in which position i goes before an earlier position k only when `ahead(i, k)`:
 * an insertion sort, for the few shares of a split or the few dozen paths of a search (Array.prototype.sort allocates a
 * work area per call). `ahead` must be a strict order (false for equal items): equal items keep their positions' order.
 */
export function insertionOrder(n: number, ahead: (i: number, k: number) => boolean): number[] {
  const order: number[] = new Array(n);
  for (let i = 0; i < n; i++) {
    let at = i;
    while (at > 0 && ahead(i, order[at - 1])) {
      order[at] = order[at - 1];
      at--;
    }
    order[at] = i;
  }
  return order;
}
