// A search's candidate paths kept across a followed block (routing/candidates.ts keeps them in the index's PathTree,
// ChainPoolIndex.paths): after a block, every request's candidates on the derived index equal those an index built
// afresh over the new pools gives (same USD prices: a derived index keeps its first state's), exactly (every field,
// the converted pools and their states included); the paths through none of the changed pools keep their candidate
// (the very object made before the block), those through a changed pool are made again, and the tree holds no path
// through the old state of a changed pool.
import t from 'tap';
import { NATIVE_TOKEN_ADDRESS } from '../../src/catalog/Catalog.ts';
import { ChainPoolIndex } from '../../src/graph/ChainPoolIndex.ts';
import type { SnapshotPool } from '../../src/protocols/registry.ts';
import { bestTrade } from '../../src/routing/bestTrade.ts';
import { type ExecutablePaths, executablePaths, otherCandidate, pricedCandidate } from '../../src/routing/candidates.ts';
import type { TradeRequest } from '../../src/routing/searchGas.ts';
import { tradeEnds } from '../../src/routing/tradeEnds.ts';
import { shippedDevnetGraph } from '../helpers/shippedDevnet.ts';

const { chain, pools, prices, tokens: poolTokens } = shippedDevnetGraph();
const native = NATIVE_TOKEN_ADDRESS.toLowerCase();
const tokens = [native, ...poolTokens];
const requests: TradeRequest[] = tokens.flatMap((tokenIn) =>
  tokens
    .filter((tokenOut) => tokenOut !== tokenIn)
    .flatMap((tokenOut) =>
      (['exactIn', 'exactOut'] as const).flatMap((tradeType) =>
        [undefined, 50].map(
          (handoverSlippageBps): TradeRequest => ({
            tokenIn,
            tokenOut,
            tradeType,
            amount: 10n ** 15n,
            maxHops: 3,
            maxSplits: 3,
            gasPriceWei: 0n,
            ...(handoverSlippageBps === undefined ? {} : { handoverSlippageBps }),
            allow: () => true,
          }),
        ),
      ),
    ),
);
const candidates = (index: ChainPoolIndex, request: TradeRequest): ExecutablePaths =>
  executablePaths(index, tradeEnds(index.wrappedNative, request.tokenIn, request.tokenOut), request, 4);

/** Everything a request's candidates hold, as text: bigints, sets and maps spelt out, no field left out. */
function spelt(paths: ExecutablePaths | { c: unknown }): string {
  return JSON.stringify(paths, (_key, value: unknown) =>
    typeof value === 'bigint'
      ? `${value}n`
      : value instanceof Set
        ? { set: [...value] }
        : value instanceof Map
          ? { map: [...value] }
          : typeof value === 'function'
            ? 'function'
            : value,
  );
}

t.test('candidates after a block equal a fresh index’s, and those through unchanged pools are kept', async (t) => {
  const before = new ChainPoolIndex(chain, pools, undefined, prices);
  const made = requests.map((r) => candidates(before, r));
  // One v2 and one v3 pool of WETH change (deeper, with another price); a third pool is removed.
  const weth = chain.wrappedNativeToken.toLowerCase();
  const ofWeth = (p: SnapshotPool) => p.token0.toLowerCase() === weth || p.token1.toLowerCase() === weth;
  const v2 = pools.find((p) => p.version === 'v2' && ofWeth(p))!;
  const v3 = pools.find((p) => p.version === 'v3' && ofWeth(p))!;
  const gone = pools.find((p) => p.version === 'v2' && p !== v2 && !ofWeth(p))!;
  const changed: SnapshotPool[] = [
    v2.version === 'v2'
      ? { ...v2, reserve0: String((BigInt(v2.reserve0) * 3n) / 2n), balance0: String((BigInt(v2.balance0) * 3n) / 2n) }
      : v2,
    v3.version === 'v3' ? { ...v3, liquidity: String((BigInt(v3.liquidity) * 5n) / 4n) } : v3,
  ];
  const after = before.withChanges(changed, [gone.address]);
  const fresh = new ChainPoolIndex(chain, pools.filter((p) => p !== gone && p !== v2 && p !== v3).concat(changed), undefined, prices);
  const oldEntries = [v2, v3, gone].flatMap((p) => before.poolsOf(p.token0.toLowerCase()).filter((e) => e.address === p.address));
  t.equal(oldEntries.length, 3, 'the changed and removed pools’ entries before the block');
  t.ok(
    oldEntries.every((e) => !after.paths.holds(e)),
    'the tree keeps no path through a changed or removed pool’s old state',
  );

  let differ = 0;
  let kept = 0;
  let remade = 0;
  let compared = 0;
  const changedAddresses = new Set([v2.address, v3.address, gone.address]);
  for (const [i, request] of requests.entries()) {
    const derived = candidates(after, request);
    const expected = candidates(fresh, request);
    if (spelt(derived) !== spelt(expected)) {
      differ++;
      t.fail(
        `${request.tokenIn} -> ${request.tokenOut} ${request.tradeType} ${request.handoverSlippageBps}: derived and fresh candidates differ`,
      );
    }
    compared += derived.paths.length + derived.others.length;
    const old = new Map(
      [...made[i].paths, ...made[i].others.flatMap((o) => (o.kept.candidate ? [o.kept.candidate] : []))].map((c) => [c.key, c]),
    );
    for (const c of derived.paths) {
      const previous = old.get(c.key);
      if (!previous) continue;
      const through = c.path.pools.some((p) => changedAddresses.has(p.address));
      if (through) {
        if (previous === c) t.fail(`${c.key}: kept through a changed pool`);
        else remade++;
      } else if (previous === c) kept++;
      else t.fail(`${c.key}: made again though none of its pools changed`);
    }
  }
  t.equal(differ, 0, `${requests.length} requests’ candidates (${compared} paths) equal a fresh index’s exactly`);
  t.ok(kept > 50, `${kept} candidates through unchanged pools kept (the same objects)`);
  t.ok(remade > 10, `${remade} candidates through a changed pool made again`);
});

t.test('a path beyond the steered ones a search built a candidate for keeps it for the next search', async (t) => {
  const index = new ChainPoolIndex(chain, pools, undefined, prices);
  let built = 0;
  for (const request of requests.filter((r) => r.handoverSlippageBps === undefined)) {
    // Two steered paths: the others are weighed by bestOtherPath, which builds the candidates of those that may win.
    bestTrade(index, { ...request, amount: 10n ** 18n, gasPriceWei: 10n ** 9n }, { maxRoutes: 2 });
    const found = executablePaths(index, tradeEnds(index.wrappedNative, request.tokenIn, request.tokenOut), request, 2);
    for (const other of found.others) {
      if (other.kept.candidate === undefined) continue;
      built++;
      const fresh = pricedCandidate(index, other.path, request) ?? null;
      if (spelt({ c: other.kept.candidate }) !== spelt({ c: fresh })) t.fail(`${other.path.path.tokens.join('>')}: kept candidate differs`);
      if (otherCandidate(index, other, request) !== (other.kept.candidate ?? undefined))
        t.fail('otherCandidate does not read the kept one');
    }
  }
  t.ok(built > 10, `${built} candidates of other paths kept at their nodes, each equal to one built afresh`);
});
