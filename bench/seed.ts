/**
 * `npm run bench:seed`: seeding time and RPC request count against a fresh devnet, for the devnet catalogue and
 * for a generated one of 50 tokens (the devnet's 6 ERC-20s + 44 addresses without pools: 1,225 pairs x
 * (2 v2 DEXes + 4 v3 fee tiers) = 7,350 discovery candidates), at several batch bounds.
 * Checks requests = 3 (chain id, block, Multicall3 code) + sum over the four dependent phases (discovery, state,
 * bitmap words, ticks) of ceil(calls / batch size); so requests <= 3 + ceil(discovery + state calls / batch) + 1
 * + tick-read requests (bitmap + ticks phases), never one request per candidate.
 */
import { join } from 'node:path';
import { getAddress, keccak256, toHex } from 'viem';
import { loadCatalog, type CatalogChain, type CatalogToken } from '../src/catalog/loadCatalog.ts';
import { startDevnet } from '../seeds/devnet/startDevnet.ts';
import { seedChains, type ChainSeedReport } from '../seeds/seedChains.ts';

const ROOT = join(import.meta.dirname, '..');

function generated(chain: CatalogChain, total: number): CatalogChain {
  const tokens: CatalogToken[] = [...chain.tokens];
  for (let i = 0; tokens.length < total + 1; i++) {
    const address = getAddress(`0x${keccak256(toHex(`bench-token-${i}`)).slice(26)}`);
    tokens.push({ address, symbol: `T${i}`, name: `Bench token ${i}`, slug: `t${i}`, decimals: 18, logo: '', blockchainId: chain.chainId });
  }
  return { ...chain, tokens };
}

function row(label: string, batchSize: number, r: ChainSeedReport): string {
  const c = r.calls;
  const all = c.discovery + c.state + c.bitmap + c.ticks;
  const perPhase = 3 + [c.discovery, c.state, c.bitmap, c.ticks].reduce((n, x) => n + Math.ceil(x / batchSize), 0);
  const tickRequests = Math.ceil(c.bitmap / batchSize) + Math.ceil(c.ticks / batchSize);
  const bound = 3 + Math.ceil((c.discovery + c.state) / batchSize) + 1 + tickRequests;
  const ok = r.rpcRequests === perPhase && r.rpcRequests <= bound ? 'ok' : 'OVER';
  return [
    label.padEnd(22),
    String(batchSize).padStart(6),
    String(r.candidates).padStart(7),
    String(all).padStart(7),
    String(r.pools).padStart(6),
    String(r.ticks).padStart(6),
    String(r.rpcRequests).padStart(9),
    String(Math.ceil(all / batchSize)).padStart(13),
    String(tickRequests).padStart(9),
    `${ok} (<= ${bound})`.padStart(13),
    `${(r.seconds * 1000).toFixed(0)} ms`.padStart(9),
  ].join(' ');
}

const devnet = await startDevnet();
try {
  console.log(`devnet: ${devnet.txCount} transactions deployed in ${devnet.startMs} ms (anvil start included)`);
  const chain = loadCatalog(join(ROOT, 'catalog')).chain('devnet')!;
  const big = generated(chain, 50);
  console.log(
    ['catalogue'.padEnd(22), 'batch'.padStart(6), 'cands'.padStart(7), 'calls'.padStart(7), 'pools'.padStart(6), 'ticks'.padStart(6), 'requests'.padStart(9), 'ceil(c/batch)'.padStart(13), 'tick reqs'.padStart(9), 'bound'.padStart(13), 'time'.padStart(9)].join(' '),
  );
  const runs: [string, CatalogChain, number][] = [
    ['devnet (6 ERC-20s)', chain, 500],
    ['devnet (6 ERC-20s)', chain, 50],
    ['generated (50 tokens)', big, 100],
    ['generated (50 tokens)', big, 500],
    ['generated (50 tokens)', big, 1000],
  ];
  for (const [label, c, batchSize] of runs) {
    const report = await seedChains({ chains: [c], rpcUrls: new Map([[c.chainId, devnet.rpcUrl]]), snapshotDir: '', write: false, progress: 'none', batchSize });
    console.log(row(label, batchSize, report.chains[0]!));
  }
} finally {
  await devnet.stop();
}
