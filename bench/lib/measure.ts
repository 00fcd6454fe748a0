// Micro-benchmark helpers for bench/amm.ts: time a function for a fixed duration, report the median of rounds.
import os from 'node:os'

export interface Measurement {
  opsPerSec: number
  usPerOp: number
}

/** Runs fn in batches until roundMs has passed, `rounds` times, and returns the median rate. */
export async function measure(fn: () => unknown, opts: { rounds?: number; roundMs?: number; async?: boolean } = {}): Promise<Measurement> {
  const rounds = opts.rounds ?? 7
  const roundMs = opts.roundMs ?? 300
  const rates: number[] = []
  let sink: unknown
  for (let r = 0; r < rounds; r++) {
    let ops = 0
    let batch = 1
    const start = performance.now()
    let now = start
    while (now - start < roundMs) {
      if (opts.async) for (let i = 0; i < batch; i++) sink = await fn()
      else for (let i = 0; i < batch; i++) sink = fn()
      ops += batch
      now = performance.now()
      if (now - start < roundMs / 10) batch *= 2
    }
    rates.push((ops * 1000) / (now - start))
  }
  if (sink === Symbol.for('never')) console.log(sink)
  rates.sort((a, b) => a - b)
  const opsPerSec = rates[Math.floor(rates.length / 2)]
  return { opsPerSec, usPerOp: 1e6 / opsPerSec }
}

/** One line describing the machine and runtime. */
export function machine(): string {
  const cpus = os.cpus()
  const load = os.loadavg().map((x) => x.toFixed(1)).join(' ')
  return `${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}, load avg ${load}`
}

export function fmtOps(x: number): string {
  return x >= 100 ? Math.round(x).toLocaleString('en-US') : x.toFixed(1)
}
