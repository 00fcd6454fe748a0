import type { CatalogChain, CatalogToken } from '../catalog/loadCatalog.ts';
import type { Trade } from '../routing/Trade.ts';
import { buildSwapSteps } from './buildSwapSteps.ts';
import { buildWrapSteps } from './buildWrapSteps.ts';
import { StepBuildError } from './StepBuildError.ts';
import type { Step } from './Step.ts';

/** Parameters of {@link buildTradeSteps}. */
export interface TradeStepsParams {
  readonly chain: CatalogChain;
  readonly trade: Trade;
  readonly tokenIn: CatalogToken;
  readonly tokenOut: CatalogToken;
  /** Enforced on chain over the whole trade. */
  readonly amountOutMinimum: bigint;
  readonly recipient: string;
  readonly wallet: string;
  /** Unix seconds. */
  readonly deadline: number;
}

/** Interim: single-pool trades through the single-pool encoders (the router encoders replace this). */
export function buildTradeSteps(p: TradeStepsParams): Step[] {
  const { chain, trade } = p;
  if (trade.splits.length !== 1) throw new StepBuildError('split trades are not encoded yet');
  const swaps = trade.splits[0]!.route.legs.filter((l) => l.kind !== 'wrap');
  if (swaps.length === 0) {
    return buildWrapSteps({ chainId: chain.chainId, tokenIn: p.tokenIn, tokenOut: p.tokenOut, wrappedNativeToken: chain.wrappedNativeToken, amount: trade.amountIn, recipient: p.recipient, wallet: p.wallet });
  }
  if (swaps.length !== 1) throw new StepBuildError('multi-hop trades are not encoded yet');
  const leg = swaps[0]!;
  const dex = chain.dexes.find((d) => d.slug === leg.dex && d.version === leg.version)!;
  return buildSwapSteps({
    chainId: chain.chainId,
    dex,
    poolFee: leg.fee,
    tokenIn: p.tokenIn,
    tokenOut: p.tokenOut,
    wrappedNativeToken: chain.wrappedNativeToken,
    amountIn: trade.amountIn,
    amountOutMinimum: p.amountOutMinimum,
    recipient: p.recipient,
    wallet: p.wallet,
    deadline: p.deadline,
  });
}
