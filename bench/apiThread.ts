/**
 * `npm run ts -- bench/apiThread.ts <other checkout>`: the API thread's CPU per default `POST /quotes/routes` with the
 * whole HTTP stack and no load generator or kernel socket work beside it (bench/lib/apiThreadStage.ts: the app as
 * src/index.ts builds it, served over in-memory connections at c=50, the real pricing worker), this checkout and
 * another in alternating child processes. Environment: BENCH_ROUNDS (processes per side, default 4), BENCH_WARM
 * (warm-up requests per process, default 15,000), BENCH_REQUESTS (requests per measured round, default 4,000; three
 * rounds per process), BENCH_ANSWERS (`recorded`: no pricing worker, each search answered with the worker's answer
 * priced at start; see the stage). Prints each side's per-round figures and the median.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { projectRoot as ROOT, tsLoader } from '../test/helpers/serverProcess.ts';

const other = process.argv[2] ? resolve(process.argv[2]) : undefined;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const WARM = Number(process.env.BENCH_WARM ?? 15_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 4_000);
const STAGE = 'bench/lib/apiThreadStage.ts';

interface StageResult {
  results: { cpuUsPerRequest: number; rps: number }[];
  failures: number;
}

/** One process of the stage under `root` (the script copied in, so both sides measure alike). */
function run(root: string): StageResult {
  if (root !== ROOT) copyFileSync(join(ROOT, STAGE), join(root, STAGE));
  const child = spawnSync(process.execPath, ['--import', tsLoader(root), join(root, STAGE), String(WARM), String(REQUESTS), '3'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
    env: process.env,
  });
  if (child.status !== 0) throw new Error(`${root}: ${child.stderr}`);
  const result = JSON.parse(child.stderr.trim().split('\n').at(-1)!) as StageResult;
  if (result.failures > 0) throw new Error(`${root}: ${result.failures} answers were not 200`);
  return result;
}

const sides: Record<'this' | 'other', number[]> = { this: [], other: [] };
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 || !other ? (['this', 'other'] as const) : (['other', 'this'] as const);
  for (const side of order) {
    if (side === 'other' && !other) continue;
    const load = loadavg()[0];
    const { results } = run(side === 'this' ? ROOT : other!);
    sides[side].push(...results.map((r) => r.cpuUsPerRequest));
    process.stdout.write(
      `${side}: ${results.map((r) => `${r.cpuUsPerRequest.toFixed(0)} µs (${r.rps.toFixed(0)} req/s)`).join(', ')}, load ${load.toFixed(1)}\n`,
    );
  }
}
const median = (a: number[]): number => [...a].sort((x, y) => x - y)[a.length >> 1];
process.stdout.write(`API thread CPU per default POST /quotes/routes, median of ${sides.this.length} rounds:\n`);
process.stdout.write(`  this checkout: ${median(sides.this).toFixed(1)} µs\n`);
if (other) process.stdout.write(`  ${other}: ${median(sides.other).toFixed(1)} µs\n`);
