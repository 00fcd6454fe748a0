// A chain file without `baseTokens`: the shipped devnet catalogue with its base tokens removed, over the shipped devnet
// snapshot (real worker pool, no chain). The route search takes its intermediate tokens from the pools
// (src/graph/baseTokens.ts), so the three-hop case is routed as with the catalogue's bases: AAVE's only pair is
// AAVE/LINK and LINK's only pool is LINK/WETH, so AAVE -> USDC needs AAVE -> LINK -> WETH -> USDC.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { warmUpRequests } from '../../src/http/warmUpRequests.ts';
import { buildQuoteTestApp } from '../helpers/quoteTestApp.ts';
import type { Answer } from '../helpers/testApp.ts';

const catalogDir = mkdtempSync(join(tmpdir(), 'sqs-no-bases-'));
const { baseTokens, ...devnet } = JSON.parse(readFileSync(fileURLToPath(new URL('../../catalog/devnet.json', import.meta.url)), 'utf8'));
writeFileSync(join(catalogDir, 'devnet.json'), JSON.stringify(devnet));
const q = buildQuoteTestApp({ catalogDir, snapshotDir: fileURLToPath(new URL('../../seeds/snapshots', import.meta.url)) });
t.teardown(async () => {
  await q.close();
  rmSync(catalogDir, { recursive: true, force: true });
});
const chain = q.catalog.chain(31337)!;
const token = (symbol: string) => chain.tokens.find((x) => x.symbol === symbol)!.address;

interface RoutedAnswer {
  route: { name: string };
  paths: { hops: unknown[] }[];
}

t.test('GET /blockchains reports the base tokens chosen from the pools', async (t) => {
  // The deepest tokens of the devnet snapshot, each with pools to two tokens or more: the same five the shipped file
  // names, in the order of the USD value of their pools.
  const res = await q.request<Answer<{ baseTokens: string[]; baseTokensFrom: string }[]>>('GET', '/blockchains?chainId=31337');
  t.strictSame(
    [res.body.data[0].baseTokens, res.body.data[0].baseTokensFrom],
    [['USDC', 'WETH', 'USDT', 'WBTC', 'DAI'].map(token), 'pools'],
  );
  t.strictSame([...res.body.data[0].baseTokens].sort(), [...baseTokens].sort(), 'the five tokens the shipped file names');
});

t.test('a chain file without baseTokens routes the three-hop case', async (t) => {
  t.equal(baseTokens.length, 5, 'the shipped devnet file names five base tokens (removed here)');
  t.strictSame(chain.baseTokens, [], 'the catalogue as loaded names none');
  const request = {
    originChainId: 31337,
    destinationChainId: 31337,
    tokenIn: token('AAVE'),
    tokenOut: token('USDC'),
    amount: '50',
    maxSplits: 1,
    recipientAddress: '0x00000000000000000000000000000000000000aa',
  };
  const res = await q.request<Answer<RoutedAnswer[]>>('POST', '/quotes/routes', { body: request });
  t.equal(res.status, 200);
  t.strictSame(
    res.body.data.map((a) => [a.route.name.replace(/ on .*/, ''), a.paths[0].hops.length]),
    [['AAVE → LINK → WETH → USDC', 3]],
  );
});

t.test("the process's warm-up quote goes from the wrapped native token to the first other base token chosen", async (t) => {
  const quote = warmUpRequests(q.catalog, q.graph()).find((r) => r.method === 'POST');
  t.strictSame(JSON.parse(quote?.body ?? '{}'), {
    originChainId: 31337,
    destinationChainId: 31337,
    tokenIn: token('WETH'),
    tokenOut: token('USDC'),
    amount: '1',
    recipientAddress: '0x1111111111111111111111111111111111111111',
  });
});
