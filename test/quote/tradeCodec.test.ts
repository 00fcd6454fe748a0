import { isDeepStrictEqual } from 'node:util';
import t from 'tap';
import { deploymentId } from '../../src/catalog/Catalog.ts';
import { pricingGraphOf } from '../../src/graph/PricingGraph.ts';
import { findTrades } from '../../src/quote/TradeTask.ts';
import { decodeTrades, encodeTrades } from '../../src/quote/tradeCodec.ts';
import type { DeploymentTrade } from '../../src/routing/bestTradesByDeployment.ts';
import { defaultLimits } from '../../src/routing/RoutingLimits.ts';
import { shippedDevnetGraph } from '../helpers/shippedDevnet.ts';

// The oracle is the worker's own outcomes: what crosses the thread boundary must come back exactly as it was priced,
// over every devnet pair (the native asset too), both trade types, small to large amounts, default routing and one
// pool per deployment, so that every field shape occurs (refusals, splits, multi-hop legs, v4 pool keys, wraps).
const { catalog, graph: pools, chain } = shippedDevnetGraph();
const graph = pricingGraphOf(pools, catalog);
const deployments = chain.dexes.map((d) => deploymentId(d.slug, d.version));
const tokens = chain.tokens.map((tk) => tk.address.toLowerCase());

/** The trades as JSON text, bigints tagged: equal texts mean equal values in the same key order. */
const text = (trades: readonly DeploymentTrade[]): string =>
  JSON.stringify(trades, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));

t.test(
  'decodeTrades(structuredClone(encodeTrades(trades))) is the trades, key order included, for every shape the search gives',
  async (t) => {
    const seen = { searches: 0, ok: 0, refused: 0, splits: 0, hops: 0, wraps: 0, exactOut: 0, sharedStrings: 0 };
    let sample: DeploymentTrade | undefined;
    const mismatches: string[] = [];
    for (const tokenIn of tokens)
      for (const tokenOut of tokens) {
        if (tokenIn === tokenOut) continue;
        for (const tradeType of ['exactIn', 'exactOut'] as const)
          for (const amount of [10n ** 3n, 10n ** 15n, 10n ** 21n])
            for (const limits of [defaultLimits(deployments), { ...defaultLimits(deployments), maxHops: 1, maxSplits: 1 }]) {
              const trades = findTrades(graph, { chainId: 31337, tokenIn, tokenOut, tradeType, amount, limits, perDeployment: true });
              const encoded = encodeTrades(trades);
              if (!encoded.every((v) => v === null || ['string', 'number', 'bigint'].includes(typeof v)))
                mismatches.push(`${tokenIn}->${tokenOut}: encoded form holds an object`);
              // Each distinct string crosses once (later occurrences are its number among the answer's strings).
              const strings = encoded.filter((v) => typeof v === 'string');
              if (new Set(strings).size !== strings.length) mismatches.push(`${tokenIn}->${tokenOut}: a string is written twice`);
              // String values of the trades (bigints are tagged `"<digits>n"` in text()).
              if (strings.length < (text(trades).match(/:"(?!-?\d+n")[^"]*"/g) ?? []).length) seen.sharedStrings++;
              const decoded = decodeTrades(structuredClone(encoded));
              if (!isDeepStrictEqual(decoded, trades) || text(decoded) !== text(trades))
                mismatches.push(`${tokenIn}->${tokenOut} ${tradeType} ${amount}: ${text(decoded)} != ${text(trades)}`);
              seen.searches++;
              for (const { outcome } of trades) {
                if (!outcome.ok) {
                  seen.refused++;
                  continue;
                }
                seen.ok++;
                const tr = outcome.trade;
                if (tr.splits.length > 1 && tr.splits.some((s) => s.route.legs.length > 1))
                  sample ??= trades.find((d) => d.outcome === outcome);
                if (tr.tradeType === 'exactOut') seen.exactOut++;
                if (tr.splits.length > 1) seen.splits++;
                if (tr.nativeIn === 'wrapped' || tr.nativeOut === 'wrapped') seen.wraps++;
                if (tr.splits.some((s) => s.route.legs.length > 1)) seen.hops++;
              }
            }
      }
    t.strictSame(mismatches, [], 'every search round-trips exactly, each distinct string written once');
    for (const [shape, count] of Object.entries(seen)) t.ok(count > 0, `the searches include ${shape} (${count})`);

    // The devnet snapshot's searches give no Uniswap v4 leg: one with a pool key (a hook's address), and a network fee
    // with no conversion into either token, set on a split trade found above.
    if (!sample?.outcome.ok) throw new Error('no split multi-hop trade among the searches');
    const trade = sample.outcome.trade;
    const [first, ...rest] = trade.splits;
    const poolKey = { fee: 8_388_608, tickSpacing: 60, hooks: '0x00000000000000000000000000000000000000c0' };
    const withKey: DeploymentTrade = {
      deployment: 'uniswap/v4',
      outcome: {
        ok: true,
        trade: {
          ...trade,
          gasCost: { tokenIn: null, tokenOut: null },
          splits: [
            { ...first, route: { ...first.route, legs: [{ ...first.route.legs[0], poolKey }, ...first.route.legs.slice(1)] } },
            ...rest,
          ],
        },
      },
    };
    const decoded = decodeTrades(structuredClone(encodeTrades([withKey, sample])));
    t.strictSame(decoded, [withKey, sample], 'a leg with a pool key and a fee without conversion round-trip');
    t.equal(text(decoded), text([withKey, sample]), 'in the same key order');

    // A route of stages (Route.stages, a path no single router runs), in the key order bestTrade builds it.
    const r = first.route;
    const vault = { kind: 'BalancerVault' as const, address: '0x00000000000000000000000000000000000000ba', name: 'Balancer Vault' };
    const staged: DeploymentTrade = {
      deployment: '',
      outcome: {
        ok: true,
        trade: {
          ...trade,
          splits: [
            {
              ...first,
              route: {
                legs: r.legs,
                amountIn: r.amountIn,
                amountOut: r.amountOut,
                executor: r.executor,
                stages: [
                  { executor: r.executor, legs: 1, amountOutMinimum: r.legs[1].amountIn },
                  { executor: vault, legs: r.legs.length - 1, amountOutMinimum: r.amountOut },
                ],
                gas: r.gas,
              },
            },
            ...rest,
          ],
        },
      },
    };
    const decodedStages = decodeTrades(structuredClone(encodeTrades([staged])));
    t.strictSame(decodedStages, [staged], 'a route of stages round-trips');
    t.equal(text(decodedStages), text([staged]), 'in the same key order');
  },
);
