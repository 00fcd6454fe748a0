// Micro-benchmark helpers for bench/amm.ts: time a function for a fixed duration, report the median of rounds.
import os from 'node:os';

export interface Measurement {
  opsPerSec: number;
  usPerOp: number;
}

export interface MeasureOptions {
  rounds?: number;
  roundMs?: number;
  async?: boolean;
  /** Rates per second of this process's CPU time (user + system) instead of wall time: less noise on a loaded machine. */
  cpu?: boolean;
}

let sink: unknown;

/** One timed round: runs fn in growing batches until roundMs has passed; returns ops per second. */
async function round(fn: () => unknown, roundMs: number, isAsync: boolean, cpu = false): Promise<number> {
  let ops = 0;
  let batch = 1;
  const start = performance.now();
  const cpuStart = cpu ? process.cpuUsage() : undefined;
  let now = start;
  while (now - start < roundMs) {
    if (isAsync) for (let i = 0; i < batch; i++) sink = await fn();
    else for (let i = 0; i < batch; i++) sink = fn();
    ops += batch;
    now = performance.now();
    if (now - start < roundMs / 10) batch *= 2;
  }
  if (cpuStart === undefined) return (ops * 1000) / (now - start);
  const used = process.cpuUsage(cpuStart);
  return (ops * 1e6) / (used.user + used.system);
}

function median(xs: number[]): Measurement {
  const sorted = [...xs].sort((a, b) => a - b);
  const opsPerSec = sorted[Math.floor(sorted.length / 2)];
  return { opsPerSec, usPerOp: 1e6 / opsPerSec };
}

/**
 * Measures two functions in alternating rounds (a, b, a, b, ...) so that load from other processes on a shared
 * machine hits both alike, and returns the median rate of each.
 */
export async function measurePair(
  a: () => unknown,
  aOpts: MeasureOptions,
  b: () => unknown,
  bOpts: MeasureOptions,
): Promise<[Measurement, Measurement]> {
  const rounds = Math.max(aOpts.rounds ?? 7, bOpts.rounds ?? 7);
  const ra: number[] = [];
  const rb: number[] = [];
  await round(a, 50, aOpts.async ?? false); // warm-up
  await round(b, 50, bOpts.async ?? false);
  for (let r = 0; r < rounds; r++) {
    ra.push(await round(a, aOpts.roundMs ?? 300, aOpts.async ?? false));
    rb.push(await round(b, bOpts.roundMs ?? 300, bOpts.async ?? false));
  }
  if (sink === Symbol.for('never')) console.log(sink);
  return [median(ra), median(rb)];
}

/** measurePair for any number of synchronous functions: one round of each in turn, `rounds` times; each one's median. */
export async function measureAlternating(fns: readonly (() => unknown)[], opts: MeasureOptions = {}): Promise<Measurement[]> {
  const rates: number[][] = fns.map(() => []);
  for (const fn of fns) await round(fn, 50, false); // warm-up
  for (let r = 0; r < (opts.rounds ?? 7); r++) {
    for (let i = 0; i < fns.length; i++) rates[i].push(await round(fns[i], opts.roundMs ?? 300, false, opts.cpu));
  }
  if (sink === Symbol.for('never')) console.log(sink);
  return rates.map(median);
}

/** Runs fn in batches until roundMs has passed, `rounds` times, and returns the median rate. */
export async function measure(fn: () => unknown, opts: MeasureOptions = {}): Promise<Measurement> {
  const rounds = opts.rounds ?? 7;
  const roundMs = opts.roundMs ?? 300;
  const rates: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let ops = 0;
    let batch = 1;
    const start = performance.now();
    let now = start;
    while (now - start < roundMs) {
      if (opts.async) for (let i = 0; i < batch; i++) sink = await fn();
      else for (let i = 0; i < batch; i++) sink = fn();
      ops += batch;
      now = performance.now();
      if (now - start < roundMs / 10) batch *= 2;
    }
    rates.push((ops * 1000) / (now - start));
  }
  if (sink === Symbol.for('never')) console.log(sink);
  return median(rates);
}

/** One line describing the machine and runtime. */
export function machine(): string {
  const cpus = os.cpus();
  const load = os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  return `${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}, load avg ${load}`;
}

export function fmtOps(x: number): string {
  return x >= 100 ? Math.round(x).toLocaleString('en-US') : x.toFixed(1);
}
