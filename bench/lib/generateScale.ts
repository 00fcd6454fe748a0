import { createHash } from 'node:crypto';
import { closeSync, copyFileSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { getAmount0Delta, getAmount1Delta } from '../../src/amm/sqrtPriceMath.ts';
import { getSqrtRatioAtTick, MAX_TICK, MIN_TICK } from '../../src/amm/tickMath.ts';

/** Repository root. */
const ROOT = join(import.meta.dirname, '..', '..');

/** `catalog/` and `snapshots/` under dir, holding every shipped chain file except devnet's (the generator writes those). */
function fixtureFolders(dir: string): { catalogDir: string; snapshotDir: string } {
  const catalogDir = join(dir, 'catalog');
  const snapshotDir = join(dir, 'snapshots');
  mkdirSync(catalogDir, { recursive: true });
  mkdirSync(snapshotDir, { recursive: true });
  for (const file of readdirSync(join(ROOT, 'catalog')))
    if (file !== 'devnet.json') copyFileSync(join(ROOT, 'catalog', file), join(catalogDir, file));
  for (const file of readdirSync(join(ROOT, 'seeds/snapshots')))
    if (file !== 'devnet.json') copyFileSync(join(ROOT, 'seeds/snapshots', file), join(snapshotDir, file));
  return { catalogDir, snapshotDir };
}

/**
 * A snapshot file written in pieces (buffered): the header fields (with `tickWindowWords` = WINDOW_WORDS), then
 * pool JSON text as given (the caller writes the commas between pools), then close() ends the array and returns
 * the bytes written.
 */
function snapshotWriter(path: string, head: Record<string, unknown>): { pool: (text: string) => void; close: () => number } {
  const fd = openSync(path, 'w');
  let buffer = '';
  let bytes = 0;
  const flush = (): void => {
    bytes += writeSync(fd, buffer);
    buffer = '';
  };
  const pool = (text: string): void => {
    buffer += text;
    if (buffer.length > 1 << 20) flush();
  };
  pool(`${JSON.stringify({ ...head, tickWindowWords: WINDOW_WORDS }).slice(0, -1)},"pools":[`);
  return {
    pool,
    close: () => {
      pool(']}');
      flush();
      closeSync(fd);
      return bytes;
    },
  };
}

/** Shape of the generated catalogue + snapshot (defaults: the bench's 100,000 pools). */
export interface ScaleOptions {
  /** Generated pools added to the devnet chain (the devnet's own pools are kept). */
  readonly pools: number;
  /** Generated ERC-20 tokens added to the devnet catalogue. */
  readonly tokens: number;
  /** Share of generated pools that are v3. */
  readonly v3Share: number;
  readonly seed: number;
  /**
   * Whether generated pools may hold a devnet token (default true: half the draws pair a generated token with one, the
   * rest two generated tokens). False (`detached`): none does, so no path between devnet tokens gains a pool, and a
   * devnet pair's answer is the devnet graph's: what a bigger graph costs by its size alone (bench:scale).
   */
  readonly hubs?: boolean;
}

export const DEFAULT_SCALE: ScaleOptions = { pools: 100_000, tokens: 5_000, v3Share: 0.4, seed: 7 };

/** What a generator wrote: the folders, and the size of the generated pools. */
export interface GeneratedFixture {
  readonly catalogDir: string;
  readonly snapshotDir: string;
  readonly snapshotBytes: number;
  readonly v2Pools: number;
  readonly v3Pools: number;
  readonly ticks: number;
  /** v3 tick-count distribution: [<= 20, 21-200, > 200] pools. */
  readonly tickBuckets: readonly [number, number, number];
  readonly largestTickCount: number;
}

/** Counts v3 pools' initialized ticks into GeneratedFixture's figures. */
class TickStats {
  ticks = 0;
  largestTickCount = 0;
  readonly tickBuckets: [number, number, number] = [0, 0, 0];

  add(count: number): void {
    this.ticks += count;
    this.largestTickCount = Math.max(this.largestTickCount, count);
    this.tickBuckets[count <= 20 ? 0 : count <= 200 ? 1 : 2]++;
  }
}

/** What generateScale wrote, with a quote mix on generated v3 pools that have hundreds of initialized ticks. */
export interface ScaleFixture extends GeneratedFixture {
  /** [tokenIn, tokenOut, display amount] on pools with >= 200 initialized ticks. */
  readonly heavyQuotes: ReadonlyArray<readonly [string, string, string]>;
}

/** mulberry32: a small deterministic PRNG. */
export function rng(seed: number): () => number {
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

/** USD prices of the devnet tokens, as the devnet pools price them (LINK at 200 per WETH, AAVE at 0.15 LINK; UNI has no pool). */
const HUB_PRICES: Record<string, number> = { WETH: 3000, USDC: 1, USDT: 1, DAI: 1, WBTC: 60_000, UNI: 8, LINK: 15, AAVE: 100 };
/** A token's USD price and decimals (generateScale prices every pool at its tokens' ratio). */
interface ScalePrice {
  readonly usd: number;
  readonly decimals: number;
}
/** Ticks kept between a pool's price and the tick range's ends (positions reach 4 words of the widest spacing). */
const TICK_ROOM = 4 * 256 * 200 + 400;

/** A positive float amount as a bigint of at least 1. */
function atLeastOne(x: number): bigint {
  return x >= 1 ? BigInt(Math.round(x)) : 1n;
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
  const { catalogDir, snapshotDir } = fixtureFolders(dir);
  const chain = JSON.parse(readFileSync(join(ROOT, 'catalog/devnet.json'), 'utf8')) as {
    tokens: { address: string; symbol: string; decimals: number }[];
  };
  const hubList = chain.tokens.filter((t) => t.symbol !== 'ETH').map((t) => t.address.toLowerCase());
  const hubs = options.hubs ?? true;
  // Prices from their own stream, so the pools drawn (pairs, DEXes, fees, positions) are those of the stream alone.
  const priceRandom = rng(options.seed + 1);
  const prices = new Map<string, ScalePrice>();
  for (const t of chain.tokens)
    if (t.symbol !== 'ETH') prices.set(t.address.toLowerCase(), { usd: HUB_PRICES[t.symbol], decimals: t.decimals });
  const generated: string[] = [];
  for (let i = 0; i < options.tokens; i++) {
    const address = hexAddress(`scale-token-${i}`);
    generated.push(address);
    prices.set(address, { usd: 10 ** (-4 + 7 * priceRandom()), decimals: 18 });
    chain.tokens.push({ address, symbol: `S${i}`, name: `Scale token ${i}`, slug: `scale-${i}`, decimals: 18, logo: '' } as {
      address: string;
      symbol: string;
      decimals: number;
    });
  }
  writeFileSync(join(catalogDir, 'devnet.json'), JSON.stringify(chain));

  const devnet = JSON.parse(readFileSync(join(ROOT, 'seeds/snapshots/devnet.json'), 'utf8')) as Record<string, unknown> & {
    pools: unknown[];
  };
  const { pools: devnetPools, ...head } = devnet;
  const out = snapshotWriter(join(snapshotDir, 'devnet.json'), head);
  const write = out.pool;
  write(devnetPools.map((p) => JSON.stringify(p)).join(','));

  const used = new Set<string>();
  let v2Pools = 0;
  let v3Pools = 0;
  const stats = new TickStats();
  const heavy: [string, string, string][] = [];
  const hub = (): string => hubList[Math.floor(random() * hubList.length)];
  const token = (): string => generated[Math.floor(random() * generated.length)];
  const midcap = (): string => generated[Math.floor(random() * Math.min(200, generated.length))];
  for (let i = 0; i < options.pools; ) {
    const a = token();
    const r = random();
    // Detached: a draw for a devnet token takes a mid-cap generated one instead.
    const b = r < 0.5 ? (hubs ? hub() : midcap()) : r < 0.8 ? midcap() : token();
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
    // The pool's price is its tokens' USD prices' ratio (a devnet pair's route gains nothing from a detour through a
    // generated token but depth); the draws the reserves and tick once had are kept so the stream stays the same.
    const [p0, p1] = [prices.get(token0)!, prices.get(token1)!];
    const rawPrice = (p0.usd / p1.usd) * 10 ** (p1.decimals - p0.decimals);
    if (!v3) {
      bigBetween(random, 18, 26);
      bigBetween(random, 18, 26);
      // $1k-$10M, half on each side.
      const half = 10 ** (3 + 4 * priceRandom()) / 2;
      const r0 = atLeastOne((half / p0.usd) * 10 ** p0.decimals);
      const r1 = atLeastOne((half / p1.usd) * 10 ** p1.decimals);
      write(`,${base},"balance0":"${r0}","balance1":"${r1}","reserve0":"${r0}","reserve1":"${r1}"}`);
      v2Pools++;
      i++;
      continue;
    }
    const spacing = SPACING[fee];
    random();
    const tick = Math.max(MIN_TICK + TICK_ROOM, Math.min(MAX_TICK - TICK_ROOM, Math.floor(Math.log(rawPrice) / LOG_TICK)));
    // A position's liquidity drawn as before, as $1-$1M of value at the pool's price (2 L sqrt(P) in token1's raw units).
    const perUsd = 10 ** p1.decimals / (2 * Math.sqrt(rawPrice) * p1.usd) / 1e15;
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
      const [lo, hi] =
        random() < 0.8
          ? [lower, upper]
          : random() < 0.5
            ? [lower, lower + spacing * (1 + Math.floor(random() * 50))]
            : [upper - spacing * (1 + Math.floor(random() * 50)), upper];
      const l = atLeastOne(Number(bigBetween(random, 15, 21)) * perUsd);
      nets.set(lo, (nets.get(lo) ?? 0n) + l);
      nets.set(hi, (nets.get(hi) ?? 0n) - l);
      if (lo <= tick && tick < hi) liquidity += l;
    }
    const ticks = [...nets.entries()].sort((x, y) => x[0] - y[0]);
    stats.add(ticks.length);
    const sqrtPriceX96 = getSqrtRatioAtTick(tick);
    write(
      `,${base},"balance0":"${bigBetween(random, 18, 24)}","balance1":"${bigBetween(random, 18, 24)}","sqrtPriceX96":"${sqrtPriceX96}","tick":${tick},"liquidity":"${liquidity}","tickSpacing":${spacing},"bitmapWords":[${word - WINDOW_WORDS},${word + WINDOW_WORDS}],"ticks":[${ticks.map(([t, net]) => `[${t},"${net}"]`).join(',')}]}`,
    );
    if (ticks.length >= 200 && heavy.length < 12 && liquidity > 0n) heavy.push([token0, token1, '']);
    v3Pools++;
    i++;
  }
  const bytes = out.close();
  return {
    catalogDir,
    snapshotDir,
    snapshotBytes: bytes,
    v2Pools,
    v3Pools,
    ticks: stats.ticks,
    tickBuckets: stats.tickBuckets,
    largestTickCount: stats.largestTickCount,
    heavyQuotes: heavy,
  };
}

/** Shape of the routing bench's generated chain (bench/routing.ts). */
export interface RoutingGraphOptions {
  /** Pools in all, the base-token pools included. */
  readonly pools: number;
  /** ERC-20 tokens that have pools: the devnet's five base tokens plus generated ones. */
  readonly tokens: number;
  readonly seed: number;
  /**
   * Uniswap v4 pools added after the others (0: none), hookless, on the catalogue's PoolManager: a 0.05% and a 0.3%
   * pool on each non-stable base pair and a 0.01% one on each stable pair, the rest drawn by popularity as the v3
   * ones are, after them, so the v2/v3 pools are the same with and without them.
   */
  readonly v4Pools?: number;
  /**
   * Balancer v2 pools added after those (0: none), on the catalogue's Vault, from their own random stream: composable
   * stable pools on the stablecoin base tokens (two and three tokens, amplification 50-1,000, fee 1-10 bps), weighted
   * pools on the base tokens (50/50, 80/20, three tokens), and the rest weighted pools of a token drawn by popularity
   * against one or two base tokens (80/20, 50/50, 1/3 each; fee 0.1-1%), priced at the tokens' USD prices.
   */
  readonly balancerPools?: number;
}

export const ROUTING_GRAPH: RoutingGraphOptions = { pools: 10_000, tokens: 500, seed: 11 };

/** What generateRoutingGraph wrote. */
export interface RoutingGraphFixture extends GeneratedFixture {
  /** Pools by USD value of their balances: [< $100k, $100k-$10M, >= $10M]. */
  readonly tvlBuckets: readonly [number, number, number];
  /** Lower-case addresses of the tokens with pools: the base tokens first, then generated ones, most traded first. */
  readonly tokens: readonly string[];
  /** How many of `tokens` are base tokens. */
  readonly baseTokens: number;
  /** Uniswap v4 pools among the pools (RoutingGraphOptions.v4Pools). */
  readonly v4Pools: number;
  /** Balancer v2 pools among the pools (RoutingGraphOptions.balancerPools): weighted and stable. */
  readonly balancerPools: { readonly weighted: number; readonly stable: number };
}

/** Devnet base tokens by symbol with the USD prices their devnet pools imply. */
const BASE_PRICES: Record<string, number> = { WETH: 3000, USDC: 1, USDT: 1, DAI: 1, WBTC: 60_000 };
/** How often each base token is the other side of a token's pool. */
const BASE_WEIGHTS: Record<string, number> = { WETH: 0.45, USDC: 0.25, USDT: 0.12, DAI: 0.08, WBTC: 0.1 };
/** Position widths in ticks (log-uniform between the two) by fee tier: stable pairs narrow, exotic ones wide. */
const WIDTHS: Record<number, readonly [number, number]> = { 100: [2, 200], 500: [10, 4_000], 3000: [60, 20_000], 10000: [200, 60_000] };
const LOG_TICK = Math.log(1.0001);

interface GeneratedToken {
  readonly address: string;
  readonly usd: number;
  readonly decimals: number;
  /** Typical USD value of its main pool. */
  readonly depth: number;
}

/**
 * Writes a catalogue and snapshot folder (shipped formats) whose devnet chain has `tokens` tokens with pools and
 * `pools` pools with consistent prices and a realistic spread of liquidity: every token has a USD price, each pool's
 * price is the ratio of its tokens' prices within half its fee; the ten base-token pairs have deep pools on every DEX and
 * fee tier ($5M-$200M); every generated token has a main pool against WETH or USDC worth its depth (Zipf by rank,
 * $30M for the most traded down to ~$20k); the rest are drawn by popularity (half against a base token, half
 * against another token, shallower), 55% v3 over the four fee tiers, 45% v2 (Uniswap, SushiSwap). v3 pools hold
 * positions around the price whose count grows with the pool's value (1-12 positions under $100k, 300-1,000 above
 * $10M), so tick counts are long-tailed like real deployments; every tick lies inside the snapshot's bitmap window
 * and liquidityNet sums to zero, so the Uniswap SDK's TickListDataProvider accepts the same ticks.
 */
export function generateRoutingGraph(dir: string, options: RoutingGraphOptions = ROUTING_GRAPH): RoutingGraphFixture {
  const random = rng(options.seed);
  const { catalogDir, snapshotDir } = fixtureFolders(dir);
  const chain = JSON.parse(readFileSync(join(ROOT, 'catalog/devnet.json'), 'utf8')) as {
    tokens: { address: string; symbol: string; decimals: number }[];
    dexes: {
      version: string;
      v4PoolManagerAddress?: string;
      balancerVaultAddress?: string;
      balancerWeightedPoolFactories?: string[];
      balancerStablePoolFactories?: string[];
    }[];
  };
  const poolManager = chain.dexes.find((d) => d.version === 'v4')?.v4PoolManagerAddress ?? '';
  const balancerDex = chain.dexes.find((d) => d.version === 'balancerV2');
  const gaussian = (): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const lognormal = (sigma: number): number => Math.exp(sigma * gaussian());

  const bases: GeneratedToken[] = Object.keys(BASE_PRICES).map((symbol) => {
    const t = chain.tokens.find((x) => x.symbol === symbol)!;
    return { address: t.address.toLowerCase(), usd: BASE_PRICES[symbol], decimals: t.decimals, depth: Number.POSITIVE_INFINITY };
  });
  const generated: GeneratedToken[] = [];
  for (let i = 0; i < options.tokens - bases.length; i++) {
    const r = random();
    const decimals = r < 0.7 ? 18 : r < 0.9 ? 6 : 8;
    const token = { address: hexAddress(`routing-token-${i}`), usd: 10 ** (-4 + 7 * random()), decimals, depth: 30e6 * (i + 1) ** -1.2 };
    generated.push(token);
    chain.tokens.push({ address: token.address, symbol: `R${i}`, name: `Routing token ${i}`, slug: `routing-${i}`, decimals, logo: '' } as {
      address: string;
      symbol: string;
      decimals: number;
    });
  }
  writeFileSync(join(catalogDir, 'devnet.json'), JSON.stringify(chain));

  // Popularity: token i is drawn with weight (i + 1)^-0.9.
  const cumulative: number[] = [];
  generated.reduce((sum, _t, i) => (cumulative[i] = sum + (i + 1) ** -0.9), 0);
  const popular = (): GeneratedToken => {
    const x = random() * cumulative[cumulative.length - 1];
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return generated[lo];
  };
  const base = (): GeneratedToken => {
    let x = random();
    for (const b of bases) {
      const symbol = Object.keys(BASE_PRICES)[bases.indexOf(b)];
      x -= BASE_WEIGHTS[symbol];
      if (x < 0) return b;
    }
    return bases[0];
  };

  const devnet = JSON.parse(readFileSync(join(ROOT, 'seeds/snapshots/devnet.json'), 'utf8')) as Record<string, unknown>;
  const { pools: _devnetPools, ...head } = devnet;
  const out = snapshotWriter(join(snapshotDir, 'devnet.json'), head);
  const used = new Set<string>();
  let written = 0;
  let v2Pools = 0;
  let v3Pools = 0;
  let v4Pools = 0;
  const stats = new TickStats();
  const tvlBuckets: [number, number, number] = [0, 0, 0];

  /** Writes one pool between a and b worth about `tvl` USD; false when that pool (pair, DEX, version, fee) exists. */
  const addPool = (
    a: GeneratedToken,
    b: GeneratedToken,
    kind: { version: 'v2'; dex: string } | { version: 'v3' | 'v4'; fee: number },
    tvl: number,
  ): boolean => {
    if (a === b) return false;
    const [t0, t1] = a.address < b.address ? [a, b] : [b, a];
    const dex = kind.version === 'v2' ? kind.dex : 'uniswap';
    const fee = kind.version === 'v2' ? 3000 : kind.fee;
    const key = `${t0.address}:${t1.address}:${dex}:${kind.version}:${fee}`;
    if (used.has(key)) return false;
    used.add(key);
    // A v4 pool's address is its poolId (32 bytes); its key and slot0 fields beside v3's.
    const v4 = kind.version === 'v4';
    const address = v4 ? `0x${hexAddress(`routing-v4-pool-${written}`).slice(2).padStart(64, '0')}` : hexAddress(`routing-pool-${written}`);
    const v4Fields = v4
      ? `,"poolManager":"${poolManager}","hooks":"0x0000000000000000000000000000000000000000","lpFee":${fee},"protocolFee":0`
      : '';
    const head = `{"address":"${address}","dex":"${dex}","version":"${kind.version}","token0":"${t0.address}","token1":"${t1.address}","fee":${fee}${v4Fields}`;
    // Raw price: token1's smallest units per token0 smallest unit, off the fair price by up to half the pool's fee
    // (arbitrage keeps each pool inside its fee band).
    const price = (t0.usd / t1.usd) * 10 ** (t1.decimals - t0.decimals) * (1 + (random() - 0.5) * (fee / 1e6));
    const comma = written === 0 ? '' : ',';
    tvlBuckets[tvl < 1e5 ? 0 : tvl < 1e7 ? 1 : 2]++;
    written++;
    if (kind.version === 'v2') {
      const r0 = BigInt(Math.max(10_000, Math.floor((tvl / 2 / t0.usd) * 10 ** t0.decimals)));
      const r1 = BigInt(Math.max(10_000, Math.floor(Number(r0) * price)));
      out.pool(`${comma}${head},"balance0":"${r0}","balance1":"${r1}","reserve0":"${r0}","reserve1":"${r1}"}`);
      v2Pools++;
      return true;
    }
    const spacing = SPACING[fee];
    const exact = Math.log(price) / LOG_TICK;
    const tick = Math.min(MAX_TICK - 1, Math.max(MIN_TICK, Math.floor(exact)));
    const below = getSqrtRatioAtTick(tick);
    const sqrtPriceX96 = below + ((getSqrtRatioAtTick(tick + 1) - below) * BigInt(Math.floor((exact - tick) * 1e6))) / 1_000_000n;
    const word = Math.floor(tick / spacing) >> 8;
    const minWord = Math.ceil(MIN_TICK / spacing) >> 8;
    const maxWord = Math.floor(MAX_TICK / spacing) >> 8;
    const window: [number, number] = [Math.max(minWord, word - WINDOW_WORDS), Math.min(maxWord, word + WINDOW_WORDS)];
    // Positions stay a word inside the window and inside the valid tick range.
    const lowest = Math.max(Math.ceil(MIN_TICK / spacing), (window[0] + 1) * 256) * spacing;
    const highest = Math.min(Math.floor(MAX_TICK / spacing), window[1] * 256) * spacing;
    const positions =
      tvl >= 1e7
        ? 300 + Math.floor(random() * 700)
        : tvl >= 1e6
          ? 40 + Math.floor(random() * 160)
          : tvl >= 1e5
            ? 10 + Math.floor(random() * 50)
            : 1 + Math.floor(random() * 12);
    const [wMin, wMax] = WIDTHS[fee];
    const sp = Math.sqrt(price);
    const sqrtAt = (t: number): number => Math.exp((t * LOG_TICK) / 2);
    const value1 = (tvl / t1.usd) * 10 ** t1.decimals;
    const weights = Array.from({ length: positions }, () => lognormal(1));
    const weightSum = weights.reduce((x, y) => x + y, 0);
    const nets = new Map<number, bigint>();
    let liquidity = 0n;
    let balance0 = 0n;
    let balance1 = 0n;
    for (const w of weights) {
      const width = wMin * (wMax / wMin) ** random();
      // 80% of positions hold the price; the rest sit wholly on one side of it.
      const start =
        random() < 0.8 ? tick - random() * width : random() < 0.5 ? tick + spacing + random() * width : tick - (1 + random()) * width;
      const lo = Math.max(lowest, Math.floor(start / spacing) * spacing);
      const hi = Math.min(highest, Math.max(lo + spacing, Math.ceil((start + width) / spacing) * spacing));
      if (hi <= lo) continue;
      const sa = sqrtAt(lo);
      const sb = sqrtAt(hi);
      const perL = sp < sa ? (1 / sa - 1 / sb) * sp * sp : sp >= sb ? sb - sa : 2 * sp - sa - (sp * sp) / sb;
      const l = BigInt(Math.floor((value1 * w) / weightSum / perL));
      if (l <= 0n) continue;
      nets.set(lo, (nets.get(lo) ?? 0n) + l);
      nets.set(hi, (nets.get(hi) ?? 0n) - l);
      const sqrtLo = getSqrtRatioAtTick(lo);
      const sqrtHi = getSqrtRatioAtTick(hi);
      if (tick < lo) balance0 += getAmount0Delta(sqrtLo, sqrtHi, l, true);
      else if (tick >= hi) balance1 += getAmount1Delta(sqrtLo, sqrtHi, l, true);
      else {
        liquidity += l;
        balance0 += getAmount0Delta(sqrtPriceX96, sqrtHi, l, true);
        balance1 += getAmount1Delta(sqrtLo, sqrtPriceX96, l, true);
      }
    }
    const ticks = [...nets.entries()].filter(([, net]) => net !== 0n).sort((x, y) => x[0] - y[0]);
    stats.add(ticks.length);
    out.pool(
      `${comma}${head},"balance0":"${balance0}","balance1":"${balance1}","sqrtPriceX96":"${sqrtPriceX96}","tick":${tick},"liquidity":"${liquidity}","tickSpacing":${spacing},"bitmapWords":[${window[0]},${window[1]}],"ticks":[${ticks.map(([t, net]) => `[${t},"${net}"]`).join(',')}]}`,
    );
    if (v4) v4Pools++;
    else v3Pools++;
    return true;
  };
  const v3 = (fee: number) => ({ version: 'v3' as const, fee });
  const v2 = (dex: string) => ({ version: 'v2' as const, dex });
  const randomKind = () => {
    if (random() < 0.45) return v2(random() < 0.65 ? 'uniswap' : 'sushiswap');
    const r = random();
    return v3(r < 0.05 ? 100 : r < 0.25 ? 500 : r < 0.8 ? 3000 : 10000);
  };

  // The base pairs: deep pools on every DEX; stablecoin pairs on the low fee tiers.
  for (let i = 0; i < bases.length; i++) {
    for (let j = i + 1; j < bases.length; j++) {
      const a = bases[i];
      const b = bases[j];
      const stable = a.usd === 1 && b.usd === 1;
      const tiers = stable
        ? [
            [100, 80e6],
            [500, 15e6],
          ]
        : [
            [500, 100e6],
            [3000, 40e6],
            [10000, 5e6],
          ];
      for (const [fee, tvl] of tiers) addPool(a, b, v3(fee!), tvl! * lognormal(0.5));
      addPool(a, b, v2('uniswap'), 30e6 * lognormal(0.5));
      addPool(a, b, v2('sushiswap'), 8e6 * lognormal(0.5));
    }
  }
  // Every generated token's main pool, against WETH or USDC.
  for (const t of generated) {
    const kind = random() < 0.6 ? v3(3000) : v2('uniswap');
    addPool(t, random() < 0.7 ? bases[0] : bases[1], kind, Math.max(2_000, t.depth * lognormal(0.5)));
  }
  // The rest by popularity: half against a base token, half between tokens (shallower).
  while (written < options.pools) {
    const a = popular();
    const other = random() < 0.5 ? base() : popular();
    const share = bases.includes(other) ? 0.3 : 0.05;
    const tvl = Math.max(500, Math.min(a.depth, other.depth) * share * lognormal(1.2));
    addPool(a, other, randomKind(), tvl);
  }
  // Uniswap v4 pools, from their own random stream (the pools above are the same with and without them).
  const wanted = written + (options.v4Pools ?? 0);
  if (written < wanted) {
    const v4Random = rng(options.seed + 1);
    const v4 = (fee: number) => ({ version: 'v4' as const, fee });
    for (let i = 0; i < bases.length; i++) {
      for (let j = i + 1; j < bases.length && written < wanted; j++) {
        const stable = bases[i].usd === 1 && bases[j].usd === 1;
        for (const [fee, tvl] of stable
          ? [[100, 40e6]]
          : [
              [500, 50e6],
              [3000, 20e6],
            ])
          addPool(bases[i], bases[j], v4(fee), tvl * lognormal(0.5));
      }
    }
    while (written < wanted) {
      const a = popular();
      const other = v4Random() < 0.5 ? base() : popular();
      const share = bases.includes(other) ? 0.3 : 0.05;
      const r = v4Random();
      addPool(
        a,
        other,
        v4(r < 0.05 ? 100 : r < 0.3 ? 500 : r < 0.85 ? 3000 : 10000),
        Math.max(500, Math.min(a.depth, other.depth) * share * lognormal(1.2)),
      );
    }
  }
  const balancerPools = { weighted: 0, stable: 0 };
  if ((options.balancerPools ?? 0) > 0) {
    if (!balancerDex?.balancerVaultAddress) throw new Error('generateRoutingGraph: the devnet catalogue has no Balancer v2 Vault');
    const balancerRandom = rng(options.seed + 2);
    const add = (pool: BalancerRecordPlan): void => {
      const n = balancerPools.weighted + balancerPools.stable;
      const record = balancerRecordOf(pool, n, balancerDex, balancerRandom);
      if (!record) return;
      out.pool(`${written === 0 ? '' : ','}${record}`);
      written++;
      if (pool.kind === 'stable') balancerPools.stable++;
      else balancerPools.weighted++;
    };
    const left = (): number => (options.balancerPools ?? 0) - balancerPools.weighted - balancerPools.stable;
    const [weth, usdc, usdt, dai, wbtc] = bases;
    const lognormalB = (sigma: number): number =>
      Math.exp(sigma * Math.sqrt(-2 * Math.log(1 - balancerRandom())) * Math.cos(2 * Math.PI * balancerRandom()));
    const planned: BalancerRecordPlan[] = [
      { kind: 'stable', tokens: [usdc, usdt, dai], tvl: 60e6, fee: 1, amp: 1000 },
      { kind: 'stable', tokens: [usdc, usdt], tvl: 20e6, fee: 4, amp: 200 },
      { kind: 'stable', tokens: [usdc, dai], tvl: 10e6, fee: 4, amp: 200 },
      { kind: 'stable', tokens: [usdt, dai], tvl: 5e6, fee: 10, amp: 50 },
      { kind: 'weighted', tokens: [weth, usdc], weights: [0.5, 0.5], tvl: 40e6, fee: 30 },
      { kind: 'weighted', tokens: [wbtc, weth], weights: [0.8, 0.2], tvl: 30e6, fee: 30 },
      { kind: 'weighted', tokens: [weth, dai], weights: [0.8, 0.2], tvl: 10e6, fee: 50 },
      { kind: 'weighted', tokens: [weth, wbtc, usdc], weights: [1 / 3, 1 / 3, 1 / 3], tvl: 25e6, fee: 20 },
    ];
    for (const pool of planned) if (left() > 0) add({ ...pool, tvl: pool.tvl * lognormalB(0.5) });
    const pickPopular = (): GeneratedToken => generated[Math.floor(generated.length * balancerRandom() ** 3)];
    while (left() > 0) {
      const t = pickPopular();
      const r = balancerRandom();
      const other = r < 0.6 ? weth : r < 0.85 ? usdc : wbtc;
      const shape = balancerRandom();
      const fee = [10, 30, 30, 100][Math.floor(balancerRandom() * 4)];
      const tvl = Math.max(2_000, t.depth * 0.3 * lognormalB(1));
      if (shape < 0.45) add({ kind: 'weighted', tokens: [t, other], weights: [0.8, 0.2], tvl, fee });
      else if (shape < 0.85) add({ kind: 'weighted', tokens: [t, other], weights: [0.5, 0.5], tvl, fee });
      else add({ kind: 'weighted', tokens: [t, weth, usdc], weights: [1 / 3, 1 / 3, 1 / 3], tvl, fee });
    }
  }
  const bytes = out.close();
  return {
    catalogDir,
    snapshotDir,
    snapshotBytes: bytes,
    v2Pools,
    v3Pools,
    v4Pools,
    balancerPools,
    ticks: stats.ticks,
    tickBuckets: stats.tickBuckets,
    largestTickCount: stats.largestTickCount,
    tvlBuckets,
    tokens: [...bases, ...generated].map((t) => t.address),
    baseTokens: bases.length,
  };
}

/** A Balancer pool to write: its tokens (distinct), their weights (weighted), its value in USD, fee in bps, amplification (stable). */
interface BalancerRecordPlan {
  readonly kind: 'weighted' | 'stable';
  readonly tokens: readonly GeneratedToken[];
  readonly weights?: readonly number[];
  readonly tvl: number;
  readonly fee: number;
  readonly amp?: number;
}

const E18 = 10n ** 18n;

/**
 * The snapshot record (JSON) of a Balancer v2 pool as seeding writes it (SnapshotPoolBalancer): the n-th pool's
 * contract and poolId made up, its tokens in the Vault's sorted order (a stable pool's own BPT among them, with a
 * preminted balance), balances worth `tvl` USD split by weight at the tokens' prices; undefined when two tokens are the same.
 */
function balancerRecordOf(
  plan: BalancerRecordPlan,
  n: number,
  dex: { balancerVaultAddress?: string; balancerWeightedPoolFactories?: string[]; balancerStablePoolFactories?: string[] },
  random: () => number,
): string | undefined {
  if (new Set(plan.tokens).size !== plan.tokens.length) return undefined;
  const pool = hexAddress(`routing-balancer-pool-${n}`);
  const poolId = `${pool}0002${n.toString(16).padStart(20, '0')}`;
  const stable = plan.kind === 'stable';
  const weights = plan.weights ?? plan.tokens.map(() => 1 / plan.tokens.length);
  // 18-decimal normalized weights summing to exactly 1e18 (the first takes the rounding).
  const raw = weights.map((w) => BigInt(Math.floor(w * 1e18)));
  raw[0] += E18 - raw.reduce((a, b) => a + b, 0n);
  const members = plan.tokens.map((t, i) => ({
    address: t.address,
    decimals: t.decimals,
    // Off the fair price by a little (arbitrage keeps it within the fee).
    balance: BigInt(Math.floor(((plan.tvl * weights[i]) / t.usd) * 10 ** t.decimals * (1 + (random() - 0.5) * (plan.fee / 1e4)))),
    weight: raw[i],
  }));
  if (stable) members.push({ address: pool, decimals: 18, balance: 2n ** 111n, weight: 0n });
  members.sort((a, b) => (a.address < b.address ? -1 : 1));
  const tradeable = members.filter((m) => m.address !== pool);
  const [m0, m1] = tradeable;
  const swapFee = BigInt(plan.fee) * 10n ** 14n;
  const factory = (stable ? dex.balancerStablePoolFactories : dex.balancerWeightedPoolFactories)?.[0] ?? '';
  const record = {
    address: poolId,
    dex: 'balancer',
    version: 'balancerV2',
    token0: m0.address,
    token1: m1.address,
    fee: Number(swapFee / 10n ** 12n),
    balance0: m0.balance.toString(),
    balance1: m1.balance.toString(),
    poolKind: stable ? 'balancerStable' : 'balancerWeighted',
    pool,
    vault: dex.balancerVaultAddress,
    factory,
    tokens: members.map((m) => m.address),
    balances: members.map((m) => m.balance.toString()),
    decimals: members.map((m) => m.decimals),
    swapFee: swapFee.toString(),
    ...(stable
      ? {
          bptIndex: members.findIndex((m) => m.address === pool),
          amp: String((plan.amp ?? 200) * 1000),
          ampUpdating: false,
          rates: members.map(() => null),
        }
      : { weights: members.map((m) => m.weight.toString()) }),
  };
  return JSON.stringify(record);
}
