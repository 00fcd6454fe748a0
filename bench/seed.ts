/**
 * `npm run bench:seed`: seeding time and RPC requests against a fresh devnet (a local anvil), for the devnet
 * catalogue and for generated catalogues of real tokens deployed onto the same devnet (bench/lib/deployBenchTokens.ts:
 * each generated token has a v2 pair with a base token, every 4th also an initialized v3 pool):
 * - "Ethereum size": the devnet's 6 ERC-20s + 400 generated = 406 ERC-20s and 5 base tokens, the shape of the
 *   Ethereum catalogue with the full Uniswap default list (406 ERC-20s, 5 bases, 2 v2 DEXes + 4 v3 fee tiers);
 * - "400 tokens, 6 bases": the devnet's 6 ERC-20s + 394 generated, UNI as a sixth base.
 * Discovery covers (token, base), (base, base) and listed pairs (src/chain/seedChains.ts discoveryPairs), so candidates
 * grow linearly with the token count. Checks requests = 4 (chain id, block, priority fee, Multicall3 code) + the sum over the six
 * phases (tokens, discovery, state, probe, bitmap, ticks) of ceil(calls / batch size): never one request per candidate.
 * BENCH_SEED_TOKENS (default 400) sets the number of generated tokens.
 */
import { join } from 'node:path';
import { startDevnet } from '../seeds/devnet/startDevnet.ts';
import type { CatalogChain } from '../src/catalog/Catalog.ts';
import { loadCatalog } from '../src/catalog/loadCatalog.ts';
import { discoveryCandidates } from '../src/chain/discoveryPairs.ts';
import type { ChainSeedReport } from '../src/chain/SeedOptions.ts';
import { seedChains } from '../src/chain/seedChains.ts';
import { deployBenchTokens, withTokens } from './lib/deployBenchTokens.ts';

const ROOT = join(import.meta.dirname, '..');
const GENERATED = Number(process.env.BENCH_SEED_TOKENS ?? 400);

function row(label: string, batchSize: number, r: ChainSeedReport): string {
  const c = r.calls;
  const phases = [c.routers, c.tokens, c.discovery, c.state, c.probe, c.approve, c.bitmap, c.ticks];
  const all = phases.reduce((n, x) => n + x, 0);
  const perPhase = 4 + r.logRequests + phases.reduce((n, x) => n + Math.ceil(x / batchSize), 0);
  const ok = r.rpcRequests === perPhase ? 'ok' : 'OFF';
  return [
    label.padEnd(28),
    String(r.candidates).padStart(7),
    String(batchSize).padStart(6),
    String(all).padStart(7),
    String(r.pools).padStart(6),
    String(r.excludedTokens.length).padStart(5),
    String(Math.ceil(c.discovery / batchSize)).padStart(6),
    String(r.rpcRequests).padStart(9),
    `${ok} (= ${perPhase})`.padStart(12),
    `${(r.seconds * 1000).toFixed(0)} ms`.padStart(9),
  ].join(' ');
}

const devnet = await startDevnet();
try {
  console.log(`devnet: ${devnet.txCount} transactions deployed in ${devnet.startMs} ms (anvil start included)`);
  const catalog = loadCatalog(join(ROOT, 'catalog'));
  const chain = catalog.chain('devnet')!;
  const ethereum = catalog.chain('ethereum')!;
  const generated = await deployBenchTokens(devnet.rpcUrl, GENERATED);
  console.log(
    `generated: ${generated.tokens.length} tokens, ${generated.v2Pairs} v2 pairs, ${generated.v3Pools} v3 pools, ${generated.txCount} transactions in ${(generated.ms / 1000).toFixed(1)} s`,
  );
  const ethereumSize = withTokens(chain, generated.tokens);
  const uni = chain.tokens.find((t) => t.symbol === 'UNI')!.address;
  const sixBases = withTokens(chain, generated.tokens.slice(0, Math.max(0, GENERATED - 6)), [...chain.baseTokens, uni]);
  const erc20s = (c: CatalogChain) => new Set(c.tokens.map((t) => t.address)).size - 1;
  console.log(
    `Ethereum catalogue (full Uniswap list): ${erc20s(ethereum)} ERC-20s, ${ethereum.baseTokens.length} bases, ${discoveryCandidates(ethereum).length} discovery candidates = ${Math.ceil(discoveryCandidates(ethereum).length / 500)} Multicall3 requests at the default batch of 500`,
  );
  console.log(
    [
      'catalogue'.padEnd(28),
      'cands'.padStart(7),
      'batch'.padStart(6),
      'calls'.padStart(7),
      'pools'.padStart(6),
      'left'.padStart(5),
      'disc.r'.padStart(6),
      'requests'.padStart(9),
      'check'.padStart(12),
      'time'.padStart(9),
    ].join(' '),
  );
  const runs: [string, CatalogChain, number][] = [
    ['devnet (6 ERC-20s, 5 bases)', chain, 500],
    ['devnet (6 ERC-20s, 5 bases)', chain, 50],
    [`${erc20s(ethereumSize)} ERC-20s, 5 bases`, ethereumSize, 500],
    [`${erc20s(ethereumSize)} ERC-20s, 5 bases`, ethereumSize, 1000],
    [`${erc20s(sixBases)} ERC-20s, 6 bases`, sixBases, 500],
  ];
  for (const [label, c, batchSize] of runs) {
    const report = await seedChains({
      chains: [c],
      rpcUrls: new Map([[c.chainId, devnet.rpcUrl]]),
      snapshotDir: '',
      write: false,
      progress: 'none',
      batchSize,
    });
    const r = report.chains[0];
    if (r.status !== 'seeded') throw new Error(`${label}: ${r.reason}`);
    console.log(row(label, batchSize, r));
  }
} finally {
  await devnet.stop();
}
