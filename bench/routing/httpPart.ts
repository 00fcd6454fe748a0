/**
 * bench:routing, part "http": POST /quotes/routes on the service as users run it (shipped devnet files), default
 * routing against maxHops 1 / maxSplits 1, interleaved rounds by the method of bench:http (bench/lib/loadCases.ts).
 * Environment: BENCH_SECONDS, BENCH_ROUNDS (defaults 3, 3), BENCH_CONNECTIONS (default "10,50").
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerProcess } from '../../test/helpers/serverProcess.ts';
import { type BenchRow, ms, num } from '../lib/benchRows.ts';
import { type LoadCase, lazyServer, runLoadCases, startService } from '../lib/loadCases.ts';
import { devnetQuoteBodies, quoteRequests } from '../lib/quoteMix.ts';

const HTTP_SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const HTTP_ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const HTTP_CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '10,50').split(',').map(Number);

/** The http part: a row per case and connection count. */
export async function httpPart(): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-routing-'));
  const servers: Promise<ServerProcess>[] = [];
  const service = lazyServer(() => {
    const s = startService({ DATA_DIR: dataDir });
    servers.push(s);
    return s;
  });
  // The mix's large amounts move prices beyond the default maxPriceImpactBps (15%, issue 23): any impact is allowed,
  // as bench:http's bodies do, so every body prices instead of being refused with 400.
  const routing = devnetQuoteBodies({ maxPriceImpactBps: 10_000 });
  const single = devnetQuoteBodies({ maxHops: 1, maxSplits: 1, maxPriceImpactBps: 10_000 });
  const cases: LoadCase[] = [
    {
      id: 'default',
      label: 'POST /quotes/routes, default routing (maxHops 3, maxSplits 5)',
      server: service,
      requests: () => quoteRequests('/quotes/routes', routing),
    },
    {
      id: 'single',
      label: 'POST /quotes/routes, maxHops 1, maxSplits 1',
      server: service,
      requests: () => quoteRequests('/quotes/routes', single),
    },
  ];
  const rows: BenchRow[] = [];
  try {
    for (const connections of HTTP_CONNECTIONS) {
      const runs = await runLoadCases(cases, { connections, rounds: HTTP_ROUNDS, seconds: HTTP_SECONDS });
      const base = runs.get('single')!.median;
      for (const c of cases) {
        const r = runs.get(c.id)!.median;
        const failed = r.failures > 0 ? `, ${r.failures} failed (${r.failureCodes})` : '';
        rows.push({
          part: 'routing',
          case: `${c.label} c=${connections}`,
          result: `${num(r.rps)} req/s, p50 ${ms(r.p50)}, p99 ${ms(r.p99)}${failed}`,
          ratio:
            c.id === 'single'
              ? '100%'
              : `${((r.rps / base.rps) * 100).toFixed(0)}% of single-pool req/s, p99 x${(r.p99 / base.p99).toFixed(1)}`,
          target: '',
          met: null,
        });
        process.stdout.write(
          `http ${rows[rows.length - 1].case}: ${rows[rows.length - 1].result} [rounds: ${runs
            .get(c.id)!
            .rounds.map((x) => num(x.rps))
            .join(', ')}]\n`,
        );
      }
    }
  } finally {
    for (const s of servers) await (await s.catch(() => undefined))?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}
