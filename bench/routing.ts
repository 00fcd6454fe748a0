/**
 * `npm run bench:routing`: the route search (src/routing/bestTrade.ts) in one thread, in one run, on two graphs: the
 * shipped devnet files and a generated chain of 10,000 pools over 500 tokens (bench/lib/routingGraphs.ts), and the
 * service over HTTP. One file per part under bench/routing/ (what each measures is in its header and in
 * bench/README.md): search, sdk, splits, exactout, http, and v4 (the search with Uniswap v4 pools against without,
 * on a freshly seeded v4 devnet and the generated graph with v4 pools added; needs anvil), and balancer (the same with
 * Balancer v2 weighted and stable pools added to the generated graph), and stages (the search with paths of stages
 * on that graph; with BENCH_BEFORE, against that commit's in alternating rounds; not in the default list).
 *
 * Environment: BENCH_ROUTING_PARTS (comma list, default "search,sdk,splits,exactout,http,v4,balancer"), BENCH_ROUTING_ROUNDS (search
 * rounds, default 10), BENCH_SECONDS / BENCH_ROUNDS / BENCH_CONNECTIONS (http part, as bench:http; defaults 3, 3,
 * "10,50"). `npm run bench:routing -- --write-readme` writes the table into bench/README.md.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BenchRow, formatTable, reportRows, writeReadmeBlock } from './lib/benchRows.ts';
import { describeMachine } from './lib/machine.ts';
import { loadRoutingGraphs, type RoutingGraphs } from './lib/routingGraphs.ts';
import { balancerPart } from './routing/balancerPart.ts';
import { exactOutputPart } from './routing/exactOutputPart.ts';
import { httpPart } from './routing/httpPart.ts';
import { sdkPart } from './routing/sdkPart.ts';
import { searchPart } from './routing/searchPart.ts';
import { splitsPart } from './routing/splitsPart.ts';
import { stagesPart } from './routing/stagesPart.ts';
import { v4Part } from './routing/v4Part.ts';

/** The in-process parts, in the order they run; each measures both graphs. */
const IN_PROCESS: readonly (readonly [string, (graphs: RoutingGraphs) => BenchRow[] | Promise<BenchRow[]>])[] = [
  ['search', searchPart],
  ['sdk', sdkPart],
  ['splits', splitsPart],
  ['exactout', exactOutputPart],
];

const PARTS = new Set((process.env.BENCH_ROUTING_PARTS ?? 'search,sdk,splits,exactout,http,v4,balancer').split(','));

const rows: BenchRow[] = [];
const started = new Date();
const dir = mkdtempSync(join(tmpdir(), 'bench-routing-graph-'));
try {
  process.stdout.write(`machine: ${describeMachine()}\n`);
  const parts = IN_PROCESS.filter(([name]) => PARTS.has(name));
  if (parts.length > 0) {
    const graphs = loadRoutingGraphs(dir);
    rows.push(graphs.row);
    for (const [, part] of parts) rows.push(...(await part(graphs)));
  }
  if (PARTS.has('v4')) rows.push(...(await v4Part()));
  if (PARTS.has('balancer')) rows.push(...(await balancerPart()));
  if (PARTS.has('stages')) rows.push(...(await stagesPart()));
  if (PARTS.has('http')) rows.push(...(await httpPart()));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
reportRows(rows);
if (process.argv.includes('--write-readme')) {
  const header = `Machine: ${describeMachine()}\nCommand: npm run bench:routing, ${started.toISOString()}\n`;
  if (!writeReadmeBlock('routing', `${header}\n${formatTable(rows)}`)) process.exitCode = 1;
}
