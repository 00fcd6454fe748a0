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
 * objects are rebuilt here as literals of one shape each. decodeTrades(encodeTrades(t)) equals t, key order included
 * (test/quote/tradeCodec.test.ts).
 */
export type EncodedTrades = (string | number | bigint | null)[];

/** The outcomes of a search in their flat form (see EncodedTrades). */
export function encodeTrades(trades: readonly DeploymentTrade[]): EncodedTrades {
  const out: EncodedTrades = [trades.length];
  for (const { deployment, outcome } of trades) {
    if (!outcome.ok) {
      out.push(deployment, 0, outcome.code);
      continue;
    }
    const t = outcome.trade;
    out.push(deployment, 1, t.tradeType, t.tokenIn, t.tokenOut, t.nativeIn, t.nativeOut, t.amountIn, t.amountOut);
    out.push(t.gasEstimate, t.gasPriceWei, t.gasCost.tokenIn, t.gasCost.tokenOut, t.priceImpactBps, t.fees, t.splits.length);
    for (const { percent, route } of t.splits) {
      const e = route.executor;
      out.push(percent, route.amountIn, route.amountOut, e.kind, e.address, e.name, route.gas, route.legs.length);
      for (const l of route.legs) {
        out.push(l.pool, l.kind, l.dex, l.version, l.fee, l.tokenIn, l.tokenOut, l.amountIn, l.amountOut);
        out.push(l.ticksCrossed, l.coldSlots, l.movesTick ? 1 : 0);
        if (l.poolKey) out.push(1, l.poolKey.fee, l.poolKey.tickSpacing, l.poolKey.hooks);
        else out.push(0);
      }
      out.push(route.stages?.length ?? 0);
      for (const st of route.stages ?? []) out.push(st.executor.kind, st.executor.address, st.executor.name, st.legs, st.amountOutMinimum);
    }
  }
  return out;
}

/** The outcomes encodeTrades flattened, rebuilt. */
export function decodeTrades(data: EncodedTrades): DeploymentTrade[] {
  let i = 0;
  const next = <T>(): T => data[i++] as T;
  const count = next<number>();
  const trades: DeploymentTrade[] = [];
  for (let n = 0; n < count; n++) {
    const deployment = next<DeploymentId | ''>();
    if (next<number>() === 0) {
      trades.push({ deployment, outcome: { ok: false, code: next<RefusalCode>() } });
      continue;
    }
    const tradeType = next<TradeType>();
    const tokenIn = next<string>();
    const tokenOut = next<string>();
    const nativeIn = next<NativeEnd>();
    const nativeOut = next<NativeEnd>();
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
      const executor = { kind: next<ExecutorKind>(), address: next<string>(), name: next<string>() };
      const gas = next<bigint>();
      const legs: Leg[] = [];
      for (let l = next<number>(); l > 0; l--) legs.push(decodeLeg(next));
      const stages: RouteStage[] = [];
      for (let st = next<number>(); st > 0; st--)
        stages.push({
          executor: { kind: next<ExecutorKind>(), address: next<string>(), name: next<string>() },
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

function decodeLeg(next: <T>() => T): Leg {
  const leg = {
    pool: next<string>(),
    kind: next<ProtocolKind>(),
    dex: next<string>(),
    version: next<string>(),
    fee: next<number>(),
    tokenIn: next<string>(),
    tokenOut: next<string>(),
    amountIn: next<bigint>(),
    amountOut: next<bigint>(),
    ticksCrossed: next<number>(),
    coldSlots: next<number>(),
    movesTick: next<number>() === 1,
  };
  return next<number>() === 1 ? { ...leg, poolKey: { fee: next<number>(), tickSpacing: next<number>(), hooks: next<string>() } } : leg;
}
