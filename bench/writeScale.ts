/**
 * `npm run ts -- bench/writeScale.ts <dir> [detached]`: writes bench:scale's generated graph (bench/lib/generateScale.ts,
 * DEFAULT_SCALE: 100,000 pools on the devnet chain) into `<dir>` (its `catalog` and `snapshots` folders), or with
 * `detached` the graph of as many pools none of which holds a devnet token, for benchmarks that serve it (threadCpu.ts's
 * BENCH_GRAPH_DIR).
 */
import { DEFAULT_SCALE, generateScale } from './lib/generateScale.ts';

const [dir, kind] = process.argv.slice(2);
if (!dir || (kind !== undefined && kind !== 'detached')) throw new Error('usage: npm run ts -- bench/writeScale.ts <dir> [detached]');
const fixture = generateScale(dir, { ...DEFAULT_SCALE, hubs: kind !== 'detached' });
process.stdout.write(`${dir}: ${fixture.v2Pools} v2 and ${fixture.v3Pools} v3 pools, ${fixture.snapshotBytes} bytes of snapshot\n`);
