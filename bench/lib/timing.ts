/** Small timing and ordering helpers shared by the in-process benchmarks (bench/routing/). */
import { GCProfiler, getHeapStatistics } from 'node:v8';

/** The result of one call and the milliseconds it took. */
export function timed<T>(fn: () => T): [T, number] {
  const t0 = performance.now();
  const result = fn();
  return [result, performance.now() - t0];
}

/**
 * Wall and CPU milliseconds of one call. CPU time (process.cpuUsage: user + system of the process, precise to the
 * microsecond on Linux) leaves out the time the shared VM gives other jobs; it includes V8's helper threads (GC).
 */
export function timedCpu<T>(fn: () => T): [T, number, number] {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const result = fn();
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  return [result, wall, (cpu.user + cpu.system) / 1000];
}

/**
 * Garbage collections and bytes allocated over stretches of synchronous work, added up: what a wall-time tail on a
 * quiet machine is made of (a scavenge landing inside a search adds its pause) and what load does not change (the
 * process CPU of timedCpu includes V8's helper threads, wall time other jobs' turns). Bytes allocated are the heap's
 * growth over the stretch plus what its collections freed (v8.GCProfiler's heap figures before and after each).
 */
export class HeapTally {
  gcs = 0;
  /** Milliseconds the collections took (GCProfiler's cost). */
  gcMs = 0;
  allocatedBytes = 0;

  measure<T>(fn: () => T): T {
    const profiler = new GCProfiler();
    const before = getHeapStatistics().used_heap_size;
    profiler.start();
    const result = fn();
    const stats = profiler.stop()?.statistics ?? [];
    let freed = 0;
    for (const gc of stats) {
      this.gcs++;
      this.gcMs += gc.cost / 1000;
      freed += gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize;
    }
    this.allocatedBytes += getHeapStatistics().used_heap_size - before + freed;
    return result;
  }
}

/** Median of a list of numbers (NaN when empty). */
export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s.length % 2 ? s[s.length >> 1] : (s[(s.length >> 1) - 1] + s[s.length >> 1]) / 2;
}

/** A deterministic shuffle (Fisher-Yates) so that rounds do not always meet the cases in the same order. */
export function shuffled<T>(list: readonly T[], random: () => number): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
