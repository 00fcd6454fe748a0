/**
 * Stage scripts run in alternating rounds against an earlier commit (bench/blocks.ts, bench/followBook.ts): a script
 * of bench/lib run in a child process under a checkout (this one, or BENCH_BEFORE's with the script copied in, so
 * both sides measure the same way), its JSON output parsed.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { projectRoot as ROOT, tsLoader } from '../../test/helpers/serverProcess.ts';

/** Runs `script` (a path under bench/lib) under `root` with `args`, its standard output parsed as JSON. */
export function runStage<T>(root: string, script: string, args: readonly string[]): T {
  const file = join(root, script);
  if (root !== ROOT) copyFileSync(join(ROOT, script), file);
  const out = execFileSync(process.execPath, ['--import', tsLoader(root), file, ...args], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  return JSON.parse(out) as T;
}

/** `rounds` rounds of this checkout's run, each followed by the before checkout's when there is one; the load average before each round and at the end. */
export function alternatingRounds<T>(
  rounds: number,
  beforeRoot: string | undefined,
  run: (root: string) => T,
): { after: T[]; before: T[]; load: number[] } {
  const after: T[] = [];
  const before: T[] = [];
  const load: number[] = [];
  for (let round = 0; round < rounds; round++) {
    load.push(loadavg()[0]);
    after.push(run(ROOT));
    if (beforeRoot) before.push(run(beforeRoot));
    process.stdout.write(`round ${round + 1}/${rounds} done (load average ${loadavg()[0].toFixed(1)})\n`);
  }
  load.push(loadavg()[0]);
  return { after, before, load };
}
