/** A growable list of latencies in milliseconds with exact percentiles (sorted on demand). */
export class LatencyRecorder {
  private values = new Float64Array(1 << 16);
  private n = 0;

  /** Records one latency (milliseconds). */
  add(ms: number): void {
    if (this.n === this.values.length) {
      const bigger = new Float64Array(this.values.length * 2);
      bigger.set(this.values);
      this.values = bigger;
    }
    this.values[this.n++] = ms;
  }

  get count(): number {
    return this.n;
  }

  /** The p-th percentile (0..100), nearest rank; NaN when empty. */
  percentile(p: number): number {
    if (this.n === 0) return Number.NaN;
    const sorted = this.values.subarray(0, this.n).slice().sort();
    const rank = Math.min(this.n - 1, Math.max(0, Math.ceil((p / 100) * this.n) - 1));
    return sorted[rank];
  }

  /** Several percentiles from one sort. */
  percentiles(ps: readonly number[]): number[] {
    if (this.n === 0) return ps.map(() => Number.NaN);
    const sorted = this.values.subarray(0, this.n).slice().sort();
    return ps.map((p) => sorted[Math.min(this.n - 1, Math.max(0, Math.ceil((p / 100) * this.n) - 1))]);
  }
}
