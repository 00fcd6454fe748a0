// findQuote (Pricer.findQuote: a pricing worker, or the API thread for a cheap search) answers a POST /quotes search
// with what sameChainQuote built in the API thread before the change: the trade's slippage, limits, view and the steps
// without allowances, value for value and key for key, and with a sender the trade itself. That earlier code is the
// oracle below, written out as it stood (src/quote/sameChainQuote.ts at 71edc1f): the trade decoded in the API
// thread, chosenSlippage, slippageLimits, describeTrade on the request's chain, buildTradeSteps. Compared over the
// devnet quote mix with varied amounts, exact input and output, a fixed slippage and "auto", approvalMode "permit2",
// a wallet other than the recipient, one hop and one split (searches the API thread prices itself), through a real
// worker and in this thread.
import t from 'tap';
import { variedQuoteBodies } from '../../bench/lib/quoteMix.ts';
import { shippedConfig } from '../../bench/lib/shippedConfig.ts';
import { chainTokenLookup } from '../../src/catalog/chainTokenLookup.ts';
import { PricingGraph } from '../../src/graph/PricingGraph.ts';
import { applyTokenFacts } from '../../src/quote/applyTokenFacts.ts';
import { chosenSlippage } from '../../src/quote/autoSlippage.ts';
import { type DeploymentQuote, type DescribedQuote, quoteSearch } from '../../src/quote/describedQuote.ts';
import { createPricer } from '../../src/quote/Pricer.ts';
import { parseQuoteRequest, type QuoteRequest } from '../../src/quote/quoteRequest.ts';
import { findQuote, findTrades } from '../../src/quote/TradeTask.ts';
import { decodeTrades, encodeTrades } from '../../src/quote/tradeCodec.ts';
import { describeTrade } from '../../src/routing/describeTrade.ts';
import { slippageLimits } from '../../src/routing/slippageLimits.ts';
import type { Trade } from '../../src/routing/Trade.ts';
import { tradeSearch } from '../../src/routing/TradeFinder.ts';
import { buildTradeSteps } from '../../src/tx/buildTradeSteps.ts';
import { shippedDevnetGraph } from '../helpers/shippedDevnet.ts';

const { catalog, graph } = shippedDevnetGraph();
const pricing = new PricingGraph(graph, catalog);
const DEADLINE = 1_900_000_000;
const SENDER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const WALLET = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

/** JSON text with bigints as `<digits>n`: equal text is equal values, key order included. */
const text = (value: unknown): string => JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));

/** A described quote's fields compared (the trade apart). */
const FIELDS = [
  'tradeType',
  'amountIn',
  'amountOut',
  'priceImpactBps',
  'slippage',
  'amountInMaximum',
  'amountOutMinimum',
  'route',
  'pairAddress',
  'view',
  'steps',
] as const;

/** The fields compared as JSON text (key order included), and the trade when it came along. */
function compared(q: Pick<DescribedQuote, (typeof FIELDS)[number]>, trade: Trade | undefined): string {
  return text([...FIELDS.map((field) => q[field]), trade]);
}

/** What sameChainQuote built in the API thread before the change (null when no trade was found). */
function before(request: QuoteRequest): string | null {
  // The search as sameChainQuote made it (findBestTrade): the best over all deployments, priced with the approval mode.
  const search = tradeSearch(request.originChain, request, { ...request.limits, approvalMode: request.approvalMode }, false);
  const [result] = decodeTrades(encodeTrades(findTrades(pricing, search)));
  if (!result?.outcome.ok) return null;
  const trade = result.outcome.trade;
  const chain = request.originChain;
  const slippage = chosenSlippage(request.slippageBps, trade);
  const { amountInMaximum, amountOutMinimum } = slippageLimits(trade, slippage.slippageBps);
  const { route, pairAddress, ...view } = describeTrade(chain, trade, chainTokenLookup(catalog, chain), amountOutMinimum);
  const steps = buildTradeSteps({
    chain,
    trade,
    tokenIn: request.tokenIn,
    tokenOut: request.tokenOut,
    amountOutMinimum,
    ...(trade.tradeType === 'exactOut' ? { amountInMaximum } : {}),
    recipient: request.recipientAddress,
    wallet: request.walletAddress,
    deadline: DEADLINE,
    allowances: undefined,
    approvalMode: request.approvalMode,
    permit2Allowances: undefined,
  });
  // The trade comes along with a sender only.
  // The view's members as the quote's JSON text has them after "snapshot".
  const found = {
    ...trade,
    slippage,
    amountInMaximum,
    amountOutMinimum,
    route,
    pairAddress,
    view: JSON.stringify(view).slice(1, -1),
    steps,
  };
  return compared(found, request.sender === undefined ? undefined : trade);
}

/** The same fields of a described quote, with its trade decoded (the trade of `before` when it came along). */
function described(found: DeploymentQuote[], withTrade: boolean): string | null {
  const [result] = found;
  if (!result?.outcome.ok) return null;
  const q = result.outcome.quote;
  const trade = q.trade === undefined ? undefined : decodeTrades(q.trade)[0].outcome;
  if (withTrade !== (trade !== undefined)) return `trade ${trade === undefined ? 'missing' : 'not asked for'}`;
  return compared(q, trade?.ok ? trade.trade : undefined);
}

/** The request of a body as the service prices it (parsed, tokens and chain as served). */
const requestOf = (body: string): QuoteRequest => applyTokenFacts(parseQuoteRequest(JSON.parse(body), catalog, 50), graph);

t.test('findQuote answers what sameChainQuote built before, in a worker and in this thread', async (t) => {
  const pricer = createPricer(shippedConfig({}));
  t.teardown(() => pricer.close());
  const variants: Record<string, unknown>[] = [
    { maxPriceImpactBps: 10_000 },
    { maxPriceImpactBps: 10_000, slippageBps: 'auto', sender: SENDER },
    { maxPriceImpactBps: 10_000, tradeType: 'exactOut', slippageBps: 137 },
    { maxPriceImpactBps: 10_000, tradeType: 'exactOut', slippageBps: 'auto', sender: SENDER },
    { maxPriceImpactBps: 10_000, approvalMode: 'permit2', sender: SENDER },
    { maxPriceImpactBps: 10_000, walletAddress: WALLET },
    { maxPriceImpactBps: 10_000, maxHops: 1, maxSplits: 1, sender: SENDER },
  ];
  let compared = 0;
  let found = 0;
  let steps = 0;
  let approvals = 0;
  let withTrade = 0;
  const differ: string[] = [];
  for (const extra of variants)
    for (const body of variedQuoteBodies(2, extra)) {
      const request = requestOf(body);
      const expected = before(request);
      const asked = request.sender !== undefined;
      const inWorker = described(await pricer.findQuote(quoteSearch(request, DEADLINE)), asked);
      const inThread = described(findQuote(pricing, quoteSearch(request, DEADLINE)), asked);
      compared++;
      if (expected !== null) {
        found++;
        const built = (JSON.parse(expected) as unknown[])[FIELDS.indexOf('steps')] as { spender?: string }[];
        steps += built.length;
        approvals += built.filter((s) => s.spender).length;
        if (asked) withTrade++;
      }
      if (inWorker !== expected) differ.push(`worker: ${body}`);
      if (inThread !== expected) differ.push(`this thread: ${body}`);
    }
  t.same(differ.slice(0, 4), [], `${compared} requests: ${found} trades, ${steps} steps, alike`);
  // What the comparison covered: trades found, approvals among the steps, trades that come along with a sender.
  t.ok(
    found > 150 && approvals > 100 && withTrade > 50,
    `${found} trades, ${steps} steps (${approvals} approvals), ${withTrade} with the trade`,
  );
});
