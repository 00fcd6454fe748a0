import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Address, parseAbi } from 'viem';
import { DevnetTrader } from '../../seeds/devnet/devnetTrader.ts';
import { type Devnet, startDevnet } from '../../seeds/devnet/startDevnet.ts';
import type { Catalog, CatalogChain, CatalogToken } from '../../src/catalog/Catalog.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { seedChains } from '../../src/chain/seedChains.ts';
import type { Snapshot } from '../../src/graph/snapshot.ts';
import { createApiKeyStore } from '../../src/store/apiKeyStore.ts';
import { artifactAbi, type DevnetWallet, devnetWallet } from './devnetWallet.ts';
import { type ServerProcess, startServer } from './serverProcess.ts';

const QUOTER_V2_ABI = artifactAbi('@uniswap/v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json');
const V2_ROUTER_ABI = parseAbi(['function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)']);

/** A devnet for the live-state tests: seeded into a snapshot folder, traders funded, blocks mined on demand. */
export interface FollowDevnet {
  readonly devnet: Devnet;
  readonly snapshotDir: string;
  readonly chain: CatalogChain;
  readonly start: Snapshot;
  readonly trader: DevnetTrader;
  readonly wallet: DevnetWallet;
  token(symbol: string): CatalogToken;
  /** Mines one block with `trades` random trades; its number. */
  tradeBlock(trades: number): Promise<number>;
  /** The chain's own quote of one pool at a block: QuoterV2.quoteExactInputSingle (v3) or the DEX's Router02.getAmountsOut (v2). */
  chainQuote(
    hop: { dex: string; version: string; fee: number; tokenIn: string; tokenOut: string },
    amountIn: bigint,
    blockNumber: bigint,
  ): Promise<bigint>;
}

/** A fresh devnet with a temporary snapshot folder and its catalogued chain, for tests that seed and follow it. */
export interface SeededDevnet {
  readonly devnet: Devnet;
  readonly snapshotDir: string;
  readonly catalog: Catalog;
  readonly chain: CatalogChain;
  /** The seeding run of the chain at the devnet's head; written into snapshotDir only with `write`. */
  seedNow(write?: boolean): Promise<Snapshot>;
}

/** Starts a devnet (`options.v4`: with Uniswap v4) and a temporary snapshot folder (`prefix` names it); `cleanup` registers their teardown. */
export async function startSeededDevnet(
  cleanup: (fn: () => unknown) => void,
  prefix: string,
  options: { readonly v4?: boolean } = {},
): Promise<SeededDevnet> {
  const devnet = await startDevnet(options);
  cleanup(() => devnet.stop());
  const catalog = loadCatalog(join(import.meta.dirname, '..', '..', 'catalog'));
  const chain = catalog.chain(devnet.chainId)!;
  return { devnet, catalog, chain, ...chainSeeder(cleanup, devnet.rpcUrl, chain, prefix) };
}

/**
 * A temporary snapshot folder (`prefix` names it; `cleanup` registers its removal) and the seeding run of `chain`
 * through `rpcUrl` at its head, written into the folder only with `write`.
 */
export function chainSeeder(
  cleanup: (fn: () => unknown) => void,
  rpcUrl: string,
  chain: CatalogChain,
  prefix: string,
): Pick<SeededDevnet, 'snapshotDir' | 'seedNow'> {
  const snapshotDir = mkdtempSync(join(tmpdir(), prefix));
  cleanup(() => rmSync(snapshotDir, { recursive: true, force: true }));
  async function seedNow(write = false): Promise<Snapshot> {
    const report = await seedChains({
      chains: [chain],
      rpcUrls: new Map([[chain.chainId, rpcUrl]]),
      snapshotDir,
      write,
      progress: 'none',
      log: () => undefined,
    });
    return report.chains[0].snapshot!;
  }
  return { snapshotDir, seedNow };
}

/** Starts the devnet, seeds its snapshot into a temporary folder and sets up the traders; `cleanup` registers teardown. */
export async function startFollowDevnet(cleanup: (fn: () => unknown) => void, seed: number): Promise<FollowDevnet> {
  const { devnet, snapshotDir, chain, seedNow } = await startSeededDevnet(cleanup, 'sqs-follow-');
  const start = await seedNow(true);
  const trader = new DevnetTrader(devnet, seed);
  await trader.setUp(start.pools);
  const wallet = devnetWallet(devnet);
  return {
    devnet,
    snapshotDir,
    chain,
    start,
    trader,
    wallet,
    token: (symbol) => chain.tokens.find((x) => x.symbol === symbol)!,
    async tradeBlock(trades) {
      await trader.queue(start, trades);
      await trader.mine();
      return Number(await wallet.client.getBlockNumber());
    },
    async chainQuote(hop, amountIn, blockNumber) {
      const dex = chain.dexes.find((d) => d.slug === hop.dex && d.version === hop.version)!;
      if (hop.version === 'v2') {
        const amounts = await wallet.client.readContract({
          address: dex.v2RouterAddress as Address,
          abi: V2_ROUTER_ABI,
          functionName: 'getAmountsOut',
          args: [amountIn, [hop.tokenIn as Address, hop.tokenOut as Address]],
          blockNumber,
        });
        return amounts[1];
      }
      const { result } = await wallet.client.simulateContract({
        address: dex.v3QuoterAddress as Address,
        abi: QUOTER_V2_ABI,
        functionName: 'quoteExactInputSingle',
        args: [{ tokenIn: hop.tokenIn, tokenOut: hop.tokenOut, amountIn, fee: hop.fee, sqrtPriceLimitX96: 0n }],
        blockNumber,
      });
      return (result as readonly bigint[])[0];
    },
  };
}

/** The server process following a devnet, with its one API key. */
export interface FollowingServer {
  readonly server: ServerProcess;
  readonly key: string;
  /** One request to the server with the key (and `body` as JSON): the status and the parsed JSON answer. */
  call<T>(method: string, path: string, body?: Record<string, unknown>): Promise<{ status: number; body: { message: string; data: T } }>;
}

/**
 * The API as a server process following the devnet itself (FOLLOW=true, polling every 100 ms, one worker, no Redis),
 * from the snapshot folder, with one API key of organization `org`; resolves once it follows the chain.
 */
export async function startFollowingServer(
  cleanup: (fn: () => unknown) => void,
  net: Pick<FollowDevnet, 'devnet' | 'snapshotDir'>,
  org: string,
): Promise<FollowingServer> {
  const dataDir = mkdtempSync(join(tmpdir(), `sqs-${org}-data-`));
  cleanup(() => rmSync(dataDir, { recursive: true, force: true }));
  const keys = createApiKeyStore({ redisUrl: undefined, dataDir });
  const { key } = await keys.create(org);
  await keys.close();
  const server = await startServer({
    env: {
      DATA_DIR: dataDir,
      FOLLOW: 'true',
      [`RPC_URL_${net.devnet.chainId}`]: net.devnet.rpcUrl,
      SNAPSHOT_DIR: net.snapshotDir,
      FOLLOW_POLL_MS: '100',
      LOG_LEVEL: 'info',
      REDIS_URL: '',
      WORKER_THREADS: '1',
    },
    timeoutMs: 120_000,
  });
  cleanup(() => server.stop());
  await server.waitForLog((l) => l.msg === 'following chains', 60_000);
  return {
    server,
    key,
    async call(method, path, body) {
      const res = await fetch(server.url + path, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, body: await res.json() };
    },
  };
}

/** One POST /quotes/routes answer, as far as untilPricedAt reads it. */
interface RoutesAnswer {
  readonly status: number;
  readonly body: { readonly data: readonly { readonly snapshot: { readonly blockNumber: number } }[] };
}

/**
 * Waits until the API prices on block `head` or later (its follower applied it), asking with `ask` (one
 * POST /quotes/routes) every 50 ms for up to 20 s; returns `head`.
 */
export async function untilPricedAt(head: number, ask: () => Promise<RoutesAnswer>): Promise<number> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const res = await ask();
    if (res.status === 200 && res.body.data[0].snapshot.blockNumber >= head) return head;
    if (Date.now() > deadline) throw new Error(`the API did not reach block ${head}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
