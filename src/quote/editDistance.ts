/**
 * Edit distance with adjacent swaps (optimal string alignment: Levenshtein where swapping two neighbouring characters
 * is one edit, so "USCD" is one edit from "USDC"). Infinity beyond 2 length apart: names and symbols are short.
 */
export function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2 || b.length > 64) return Infinity;
  let before: number[] = [];
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const next = [i];
    for (let j = 1; j <= b.length; j += 1) {
      let d = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2] + 1);
      next.push(d);
    }
    before = row;
    row = next;
  }
  return row[b.length];
}
