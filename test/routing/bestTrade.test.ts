import t from 'tap';
import { ChainPoolIndex, type PoolEntry } from '../../src/graph/ChainPoolIndex.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { PricingGraph } from '../../src/graph/PricingGraph.ts';
import { bestTrade } from '../../src/routing/bestTrade.ts';
import { callGas } from '../../src/routing/gasModel.ts';
import { SdkPools } from '../helpers/sdkPools.ts';
import { shippedDevnetGraph } from '../helpers/shippedDevnet.ts';

// bestTrade on the shipped devnet snapshot against the Uniswap SDKs' own route search over the same pools
// (Trade.bestTradeExactIn): with one split, restricted to one protocol, the best path is the same to the wei; with
// splits over every pool, never less.
const { catalog, snapshot, chain } = shippedDevnetGraph();
const index = new PricingGraph(new PoolGraph([snapshot], catalog), catalog).chain(31337)!;
const token = (symbol: string) => chain.tokens.find((x) => x.symbol === symbol)!;
const decimals = (address: string) => catalog.token(31337, address)!.decimals;
const v3Only = new SdkPools(snapshot, decimals, (p) => p.dex === 'uniswap' && p.version === 'v3');
const v2Only = new SdkPools(snapshot, decimals, (p) => p.dex === 'uniswap' && p.version === 'v2');
const only = (deployment: string) => (e: PoolEntry) => `${e.dex}/${e.version}` === deployment;

/** USD value of one whole token on the devnet plan (prices of seeds/devnet/devnetPlan.ts). */
const USD: Record<string, number> = { WETH: 3000, USDC: 1, USDT: 1, WBTC: 60000, DAI: 1 };
const SYMBOLS = Object.keys(USD);

function amountOf(symbol: string, usd: number): bigint {
  const d = token(symbol).decimals;
  return (BigInt(Math.round((usd / USD[symbol]) * 1e6)) * 10n ** BigInt(d)) / 1_000_000n;
}

t.test('one split, one protocol: the same best path as the SDK route search, to the wei', async (t) => {
  let compared = 0;
  for (const a of SYMBOLS) {
    for (const b of SYMBOLS) {
      if (a === b) continue;
      for (const usd of [100, 20_000, 250_000]) {
        const amount = amountOf(a, usd);
        const request = {
          tokenIn: token(a).address.toLowerCase(),
          tokenOut: token(b).address.toLowerCase(),
          tradeType: 'exactIn' as const,
          amount,
          maxHops: 3,
          maxSplits: 1,
          gasPriceWei: 0n,
        };
        for (const [deployment, sdk] of [
          ['uniswap/v3', v3Only],
          ['uniswap/v2', v2Only],
        ] as const) {
          const ours = bestTrade(index, { ...request, allow: only(deployment) });
          const tIn = sdk.token(31337, token(a).address, token(a).decimals);
          const tOut = sdk.token(31337, token(b).address, token(b).decimals);
          const theirs = deployment === 'uniswap/v3' ? await sdk.bestV3(tIn, tOut, amount, 3) : sdk.bestV2(tIn, tOut, amount, 3);
          t.equal(ours.ok ? ours.trade.amountOut : undefined, theirs, `${usd} USD of ${a} -> ${b} on ${deployment}`);
          // Every pair is connected on both protocols of the devnet: "neither finds a trade" would prove nothing.
          t.not(theirs, undefined, `${usd} USD of ${a} -> ${b} on ${deployment}: the SDK finds a trade`);
          compared++;
        }
      }
    }
  }
  t.equal(compared, 120);
});

t.test('splits over every pool never give less than the SDK best path of either protocol', async (t) => {
  for (const a of SYMBOLS) {
    for (const b of SYMBOLS) {
      if (a === b) continue;
      const amount = amountOf(a, 250_000);
      const tIn = token(a);
      const tOut = token(b);
      const ours = bestTrade(index, {
        tokenIn: tIn.address.toLowerCase(),
        tokenOut: tOut.address.toLowerCase(),
        tradeType: 'exactIn',
        amount,
        maxHops: 3,
        maxSplits: 5,
        gasPriceWei: 0n,
        allow: () => true,
      });
      const sdkV3 = await v3Only.bestV3(
        v3Only.token(31337, tIn.address, tIn.decimals),
        v3Only.token(31337, tOut.address, tOut.decimals),
        amount,
        3,
      );
      const sdkV2 = v2Only.bestV2(
        v2Only.token(31337, tIn.address, tIn.decimals),
        v2Only.token(31337, tOut.address, tOut.decimals),
        amount,
        3,
      );
      t.ok(sdkV3 !== undefined && sdkV2 !== undefined, `250000 USD of ${a} -> ${b}: both SDKs find a trade (${sdkV3}, ${sdkV2})`);
      const best = [sdkV3, sdkV2].reduce<bigint>((m, x) => (x !== undefined && x > m ? x : m), 0n);
      t.ok(
        ours.ok && ours.trade.amountOut >= best,
        `250000 USD of ${a} -> ${b}: ours ${ours.ok ? ours.trade.amountOut : ours.code} >= SDK ${best}`,
      );
      if (ours.ok)
        t.equal(
          ours.trade.splits.reduce((s, x) => s + Math.round(x.percent * 10_000), 0),
          1_000_000,
          'the split percentages (four decimals) add up to 100',
        );
      if (ours.ok) t.equal(ours.trade.amountIn, amount, 'the splits spend exactly the amount');
    }
  }
});

t.test(
  'exact output, one split, one protocol: the same cheapest path as the SDK route search (bestTradeExactOut), to the wei',
  async (t) => {
    let compared = 0;
    for (const a of SYMBOLS) {
      for (const b of SYMBOLS) {
        if (a === b) continue;
        for (const usd of [100, 20_000, 250_000]) {
          const amount = amountOf(b, usd);
          const request = {
            tokenIn: token(a).address.toLowerCase(),
            tokenOut: token(b).address.toLowerCase(),
            tradeType: 'exactOut' as const,
            amount,
            maxHops: 3,
            maxSplits: 1,
            gasPriceWei: 0n,
          };
          for (const [deployment, sdk] of [
            ['uniswap/v3', v3Only],
            ['uniswap/v2', v2Only],
          ] as const) {
            const ours = bestTrade(index, { ...request, allow: only(deployment) });
            const tIn = sdk.token(31337, token(a).address, token(a).decimals);
            const tOut = sdk.token(31337, token(b).address, token(b).decimals);
            const theirs =
              deployment === 'uniswap/v3' ? await sdk.bestV3ExactOut(tIn, tOut, amount, 3) : sdk.bestV2ExactOut(tIn, tOut, amount, 3);
            t.equal(ours.ok ? ours.trade.amountIn : undefined, theirs, `exactly ${usd} USD of ${b} from ${a} on ${deployment}`);
            if (ours.ok) t.equal(ours.trade.amountOut, amount);
            t.not(theirs, undefined, `exactly ${usd} USD of ${b} from ${a} on ${deployment}: the SDK finds a trade`);
            compared++;
          }
        }
      }
    }
    t.equal(compared, 120);
  },
);

t.test('exact output, splits over every pool never need more than the SDK cheapest path of either protocol', async (t) => {
  for (const a of SYMBOLS) {
    for (const b of SYMBOLS) {
      if (a === b) continue;
      const amount = amountOf(b, 250_000);
      const tIn = token(a);
      const tOut = token(b);
      const ours = bestTrade(index, {
        tokenIn: tIn.address.toLowerCase(),
        tokenOut: tOut.address.toLowerCase(),
        tradeType: 'exactOut',
        amount,
        maxHops: 3,
        maxSplits: 5,
        gasPriceWei: 0n,
        allow: () => true,
      });
      const sdkV3 = await v3Only.bestV3ExactOut(
        v3Only.token(31337, tIn.address, tIn.decimals),
        v3Only.token(31337, tOut.address, tOut.decimals),
        amount,
        3,
      );
      const sdkV2 = v2Only.bestV2ExactOut(
        v2Only.token(31337, tIn.address, tIn.decimals),
        v2Only.token(31337, tOut.address, tOut.decimals),
        amount,
        3,
      );
      const cheapest = [sdkV3, sdkV2].filter((x): x is bigint => x !== undefined).reduce((m, x) => (x < m ? x : m));
      t.ok(
        ours.ok && ours.trade.amountIn <= cheapest,
        `exactly 250000 USD of ${b} from ${a}: ours ${ours.ok ? ours.trade.amountIn : ours.code} <= SDK ${cheapest}`,
      );
      if (ours.ok)
        t.strictSame(
          [ours.trade.splits.reduce((s, x) => s + Math.round(x.percent * 10_000), 0), ours.trade.amountOut],
          [1_000_000, amount],
          'the splits deliver exactly the amount',
        );
    }
  }
});

t.test('an input token flagged approvalReset: the same trade, its gasEstimate one approve step more per router', async (t) => {
  // The devnet's USDT flagged as Ethereum's is (src/tx/approveStep.ts: reset to 0, then approve the amount).
  const flagged = new ChainPoolIndex(
    { ...chain, tokens: chain.tokens.map((x) => (x.symbol === 'USDT' ? { ...x, approvalReset: true as const } : x)) },
    new PoolGraph([snapshot], catalog).pools(31337),
  );
  let compared = 0;
  for (const [a, b, maxSplits] of [
    ['USDT', 'WETH', 1],
    ['USDT', 'DAI', 5],
    ['WETH', 'USDT', 5],
  ] as const) {
    const request = {
      tokenIn: token(a).address.toLowerCase(),
      tokenOut: token(b).address.toLowerCase(),
      tradeType: 'exactIn' as const,
      amount: amountOf(a, 250_000),
      maxHops: 3,
      maxSplits,
      gasPriceWei: 0n,
      allow: () => true,
    };
    const plain = bestTrade(index, request);
    const reset = bestTrade(flagged, request);
    if (!plain.ok || !reset.ok) throw new Error(`${a} -> ${b}: no trade`);
    const routers = new Set(plain.trade.splits.map((s) => s.route.executor.address)).size;
    t.strictSame(reset.trade.splits, plain.trade.splits, `${a} -> ${b}: the same splits (ranked by gross amounts)`);
    t.equal(
      reset.trade.gasEstimate - plain.trade.gasEstimate,
      a === 'USDT'
        ? BigInt(routers) * (callGas('SwapRouter02', 1, false, false, true) - callGas('SwapRouter02', 1, false, false, false))
        : 0n,
      `${a} -> ${b} over ${routers} router(s)`,
    );
    compared++;
  }
  t.equal(compared, 3);
});
