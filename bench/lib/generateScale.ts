import { createHash } from 'node:crypto';
import { closeSync, copyFileSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { getSqrtRatioAtTick } from '../../src/amm/tickMath.ts';

/** Repository root. */
const ROOT = join(import.meta.dirname, '..', '..');

/** Shape of the generated catalogue + snapshot (defaults: the bench's 100,000 pools). */
export interface ScaleOptions {
  /** Generated pools added to the devnet chain (the devnet's own pools are kept). */
  readonly pools: number;
  /** Generated ERC-20 tokens added to the devnet catalogue. */
  readonly tokens: number;
  /** Share of generated pools that are v3. */
  readonly v3Share: number;
  readonly seed: number;
}

export const DEFAULT_SCALE: ScaleOptions = { pools: 100_000, tokens: 5_000, v3Share: 0.4, seed: 7 };

/** What was written, with a quote mix on generated v3 pools that have hundreds of initialized ticks. */
export interface ScaleFixture {
  readonly catalogDir: string;
  readonly snapshotDir: string;
  readonly snapshotBytes: number;
  readonly v2Pools: number;
  readonly v3Pools: number;
  readonly ticks: number;
  /** v3 tick-count distribution: [<= 20, 21-200, > 200] pools. */
  readonly tickBuckets: readonly [number, number, number];
  readonly largestTickCount: number;
  /** [tokenIn, tokenOut, display amount] on pools with >= 200 initialized ticks. */
  readonly heavyQuotes: ReadonlyArray<readonly [string, string, string]>;
}

/** mulberry32: a small deterministic PRNG. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hexAddress(label: string): string {
  return `0x${createHash('sha256').update(label).digest('hex').slice(0, 40)}`;
}

const SPACING: Record<number, number> = { 100: 1, 500: 10, 3000: 60, 10000: 200 };
const V3_FEES = [100, 500, 3000, 10000];
const WINDOW_WORDS = 20;

/** A random bigint in [10^lo, 10^hi). */
function bigBetween(random: () => number, lo: number, hi: number): bigint {
  const digits = lo + Math.floor(random() * (hi - lo));
  let s = String(1 + Math.floor(random() * 9));
  for (let i = 1; i <= digits; i++) s += String(Math.floor(random() * 10));
  return BigInt(s);
}

/** How many positions a v3 pool gets: a long tail, like real deployments (most pools thin, some deep). */
function positionCount(random: () => number): number {
  const r = random();
  if (r < 0.7) return 1 + Math.floor(random() * 10); // 2-20 ticks
  if (r < 0.95) return 10 + Math.floor(random() * 90); // 20-200 ticks
  return 100 + Math.floor(random() * 400); // 200-1,000 ticks
}

/**
 * Writes a catalogue (the repository's, with `tokens` generated tokens added to devnet) and a snapshot folder
 * (devnet's pools plus `pools` generated v2/v3 pools with consistent state; devnet-b copied) under `dir`, in
 * the shipped formats (catalog/chain.schema.json, seeds/snapshot.schema.json).
 */
export function generateScale(dir: string, options: ScaleOptions = DEFAULT_SCALE): ScaleFixture {
  const random = rng(options.seed);
  const catalogDir = join(dir, 'catalog');
  const snapshotDir = join(dir, 'snapshots');
  mkdirSync(catalogDir, { recursive: true });
  mkdirSync(snapshotDir, { recursive: true });
  for (const file of readdirSync(join(ROOT, 'catalog'))) if (file !== 'devnet.json') copyFileSync(join(ROOT, 'catalog', file), join(catalogDir, file));
  for (const file of readdirSync(join(ROOT, 'seeds/snapshots'))) if (file !== 'devnet.json') copyFileSync(join(ROOT, 'seeds/snapshots', file), join(snapshotDir, file));

  const chain = JSON.parse(readFileSync(join(ROOT, 'catalog/devnet.json'), 'utf8')) as { tokens: { address: string; symbol: string }[] };
  const hubs = chain.tokens.filter((t) => t.symbol !== 'ETH').map((t) => t.address.toLowerCase());
  const generated: string[] = [];
  for (let i = 0; i < options.tokens; i++) {
    const address = hexAddress(`scale-token-${i}`);
    generated.push(address);
    chain.tokens.push({ address, symbol: `S${i}`, name: `Scale token ${i}`, slug: `scale-${i}`, decimals: 18, logo: '' } as { address: string; symbol: string });
  }
  writeFileSync(join(catalogDir, 'devnet.json'), JSON.stringify(chain));

  const devnet = JSON.parse(readFileSync(join(ROOT, 'seeds/snapshots/devnet.json'), 'utf8')) as Record<string, unknown> & { pools: unknown[] };
  const path = join(snapshotDir, 'devnet.json');
  const fd = openSync(path, 'w');
  let buffer = '';
  let bytes = 0;
  const write = (text: string): void => {
    buffer += text;
    if (buffer.length > 1 << 20) flush();
  };
  const flush = (): void => {
    bytes += writeSync(fd, buffer);
    buffer = '';
  };
  const { pools: devnetPools, ...head } = devnet;
  write(`${JSON.stringify({ ...head, tickWindowWords: WINDOW_WORDS }).slice(0, -1)},"pools":[`);
  write(devnetPools.map((p) => JSON.stringify(p)).join(','));

  const used = new Set<string>();
  let v2Pools = 0;
  let v3Pools = 0;
  let ticksTotal = 0;
  let largest = 0;
  const buckets: [number, number, number] = [0, 0, 0];
  const heavy: [string, string, string][] = [];
  const hub = (): string => hubs[Math.floor(random() * hubs.length)];
  const token = (): string => generated[Math.floor(random() * generated.length)];
  const midcap = (): string => generated[Math.floor(random() * Math.min(200, generated.length))];
  for (let i = 0; i < options.pools; ) {
    const a = token();
    const r = random();
    const b = r < 0.5 ? hub() : r < 0.8 ? midcap() : token();
    if (a === b) continue;
    const [token0, token1] = a < b ? [a, b] : [b, a];
    const v3 = random() < options.v3Share;
    const fee = v3 ? V3_FEES[Math.floor(random() * 4)] : 3000;
    const dex = v3 ? 'uniswap' : random() < 0.6 ? 'uniswap' : 'sushiswap';
    const key = `${token0}:${token1}:${dex}:${v3 ? 'v3' : 'v2'}:${fee}`;
    if (used.has(key)) continue;
    used.add(key);
    const address = hexAddress(`scale-pool-${i}`);
    const base = `{"address":"${address}","dex":"${dex}","version":"${v3 ? 'v3' : 'v2'}","token0":"${token0}","token1":"${token1}","fee":${fee}`;
    if (!v3) {
      const r0 = bigBetween(random, 18, 26);
      const r1 = bigBetween(random, 18, 26);
      write(`,${base},"balance0":"${r0}","balance1":"${r1}","reserve0":"${r0}","reserve1":"${r1}"}`);
      v2Pools++;
      i++;
      continue;
    }
    const spacing = SPACING[fee];
    const tick = Math.floor((random() - 0.5) * 200_000);
    const compressed = Math.floor(tick / spacing);
    const word = compressed >> 8;
    // Positions within +-4 words of the price (inside the +-20-word window that was "read").
    const span = 4 * 256;
    const nets = new Map<number, bigint>();
    let liquidity = 0n;
    const n = positionCount(random);
    for (let k = 0; k < n; k++) {
      const lower = (compressed - 1 - Math.floor(random() * span)) * spacing;
      const upper = (compressed + 1 + Math.floor(random() * span)) * spacing;
      const [lo, hi] = random() < 0.8 ? [lower, upper] : random() < 0.5 ? [lower, lower + spacing * (1 + Math.floor(random() * 50))] : [upper - spacing * (1 + Math.floor(random() * 50)), upper];
      const l = bigBetween(random, 15, 21);
      nets.set(lo, (nets.get(lo) ?? 0n) + l);
      nets.set(hi, (nets.get(hi) ?? 0n) - l);
      if (lo <= tick && tick < hi) liquidity += l;
    }
    const ticks = [...nets.entries()].sort((x, y) => x[0] - y[0]);
    ticksTotal += ticks.length;
    largest = Math.max(largest, ticks.length);
    buckets[ticks.length <= 20 ? 0 : ticks.length <= 200 ? 1 : 2]++;
    const sqrtPriceX96 = getSqrtRatioAtTick(tick);
    write(`,${base},"balance0":"${bigBetween(random, 18, 24)}","balance1":"${bigBetween(random, 18, 24)}","sqrtPriceX96":"${sqrtPriceX96}","tick":${tick},"liquidity":"${liquidity}","tickSpacing":${spacing},"bitmapWords":[${word - WINDOW_WORDS},${word + WINDOW_WORDS}],"ticks":[${ticks.map(([t, net]) => `[${t},"${net}"]`).join(',')}]}`);
    if (ticks.length >= 200 && heavy.length < 12 && liquidity > 0n) heavy.push([token0, token1, '']);
    v3Pools++;
    i++;
  }
  write(']}');
  flush();
  closeSync(fd);
  return { catalogDir, snapshotDir, snapshotBytes: bytes, v2Pools, v3Pools, ticks: ticksTotal, tickBuckets: buckets, largestTickCount: largest, heavyQuotes: heavy };
}
