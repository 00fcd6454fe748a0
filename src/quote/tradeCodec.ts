import type { DeploymentId } from '../catalog/Catalog.ts';
import type { RefusalCode } from '../errors/RefusalCode.ts';
import type { TradeType } from '../protocols/PoolProtocol.ts';
import type { ProtocolKind } from '../protocols/registry.ts';
import type { DeploymentTrade } from '../routing/bestTradesByDeployment.ts';
import type { ExecutorKind, Leg, NativeEnd, Route, RouteStage, Split, Trade } from '../routing/Trade.ts';

/**
 * A worker's trades as one flat array of primitives (strings, numbers, bigints, null), the form they cross the thread
 * boundary in (TradeTaskResult). The structured clone of the trades themselves builds every object of the tree
 * property by property on the receiving side, which cost the API thread about as much as describing and serialising
 * the routes (bench/HISTORY.md, issue 24); a flat array of primitives is cloned at a fraction of that, and the
 * objects are rebuilt here as literals of one shape each. Each distinct string (token and pool addresses, DEX slugs,
 * executors: ~33 distinct of ~120 per default-routing answer) is written once; where it occurs again the array holds
 * the number of its first occurrence among the answer's strings, so the clone writes and reads a third of the strings
 * and the API thread allocates one copy of each (bench/HISTORY.md, issue 24, thru). decodeTrades(encodeTrades(t))
 * equals t, key order included (test/quote/tradeCodec.test.ts).
 */
export type EncodedTrades = (string | number | bigint | null)[];

/** The outcomes of a search in their flat form (see EncodedTrades). */
export function encodeTrades(trades: readonly DeploymentTrade[]): EncodedTrades {
  const out: EncodedTrades = [trades.length];
  // Each string's number among the distinct strings written so far, in the order decodeTrades reads them.
  const written = new Map<string, number>();
  const text = (value: string): string | number => {
    const at = written.get(value);
    if (at !== undefined) return at;
    written.set(value, written.size);
    return value;
  };
  for (const { deployment, outcome } of trades) {
    if (!outcome.ok) {
      out.push(text(deployment), 0, text(outcome.code));
      continue;
    }
    const t = outcome.trade;
    out.push(text(deployment), 1, text(t.tradeType), text(t.tokenIn), text(t.tokenOut), text(t.nativeIn), text(t.nativeOut));
    out.push(t.amountIn, t.amountOut, t.gasEstimate, t.gasPriceWei, t.gasCost.tokenIn, t.gasCost.tokenOut, t.priceImpactBps, t.fees);
    out.push(t.splits.length);
    for (const { percent, route } of t.splits) {
      const e = route.executor;
      out.push(percent, route.amountIn, route.amountOut, text(e.kind), text(e.address), text(e.name), route.gas, route.legs.length);
      for (const l of route.legs) {
        out.push(text(l.pool), text(l.kind), text(l.dex), text(l.version), l.fee, text(l.tokenIn), text(l.tokenOut));
        out.push(l.amountIn, l.amountOut, l.ticksCrossed, l.coldSlots, l.movesTick ? 1 : 0);
        if (l.poolKey) out.push(1, l.poolKey.fee, l.poolKey.tickSpacing, text(l.poolKey.hooks));
        else out.push(0);
      }
      out.push(route.stages?.length ?? 0);
      for (const st of route.stages ?? [])
        out.push(text(st.executor.kind), text(st.executor.address), text(st.executor.name), st.legs, st.amountOutMinimum);
    }
  }
  return out;
}

/** The outcomes encodeTrades flattened, rebuilt. */
export function decodeTrades(data: EncodedTrades): DeploymentTrade[] {
  let i = 0;
  const next = <T>(): T => data[i++] as T;
  // The answer's distinct strings in the order they were first written (encodeTrades' `written`).
  const strings: string[] = [];
  const text = <T extends string = string>(): T => {
    const value = data[i++] as string | number;
    if (typeof value === 'number') return strings[value] as T;
    strings.push(value);
    return value as T;
  };
  const count = next<number>();
  const trades: DeploymentTrade[] = [];
  for (let n = 0; n < count; n++) {
    const deployment = text<DeploymentId | ''>();
    if (next<number>() === 0) {
      trades.push({ deployment, outcome: { ok: false, code: text<RefusalCode>() } });
      continue;
    }
    const tradeType = text<TradeType>();
    const tokenIn = text();
    const tokenOut = text();
    const nativeIn = text<NativeEnd>();
    const nativeOut = text<NativeEnd>();
    const amountIn = next<bigint>();
    const amountOut = next<bigint>();
    const gasEstimate = next<bigint>();
    const gasPriceWei = next<bigint>();
    const gasCost = { tokenIn: next<bigint | null>(), tokenOut: next<bigint | null>() };
    const priceImpactBps = next<number>();
    const fees = next<bigint>();
    const splits: Split[] = [];
    for (let s = next<number>(); s > 0; s--) {
      const percent = next<number>();
      const routeIn = next<bigint>();
      const routeOut = next<bigint>();
      const executor = { kind: text<ExecutorKind>(), address: text(), name: text() };
      const gas = next<bigint>();
      const legs: Leg[] = [];
      for (let l = next<number>(); l > 0; l--) legs.push(decodeLeg(next, text));
      const stages: RouteStage[] = [];
      for (let st = next<number>(); st > 0; st--)
        stages.push({
          executor: { kind: text<ExecutorKind>(), address: text(), name: text() },
          legs: next<number>(),
          amountOutMinimum: next<bigint>(),
        });
      const route: Route = {
        legs,
        amountIn: routeIn,
        amountOut: routeOut,
        executor,
        ...(stages.length > 0 ? { stages } : {}),
        gas,
      };
      splits.push({ percent, route });
    }
    const trade: Trade = {
      tradeType,
      tokenIn,
      tokenOut,
      nativeIn,
      nativeOut,
      amountIn,
      amountOut,
      splits,
      gasEstimate,
      gasPriceWei,
      gasCost,
      priceImpactBps,
      fees,
    };
    trades.push({ deployment, outcome: { ok: true, trade } });
  }
  return trades;
}

function decodeLeg(next: <T>() => T, text: <T extends string = string>() => T): Leg {
  const leg = {
    pool: text(),
    kind: text<ProtocolKind>(),
    dex: text(),
    version: text(),
    fee: next<number>(),
    tokenIn: text(),
    tokenOut: text(),
    amountIn: next<bigint>(),
    amountOut: next<bigint>(),
    ticksCrossed: next<number>(),
    coldSlots: next<number>(),
    movesTick: next<number>() === 1,
  };
  return next<number>() === 1 ? { ...leg, poolKey: { fee: next<number>(), tickSpacing: next<number>(), hooks: text() } } : leg;
}
