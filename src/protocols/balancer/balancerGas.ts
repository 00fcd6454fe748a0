import type { ProtocolGas } from '../PoolProtocol.ts';

/*
 * Gas of Balancer v2 swaps through the Vault (src/tx/routers/balancerVault.ts): the figures of the weighted and stable
 * registry rows (PoolProtocol.gas) beside the Vault's call figure, GAS.call.BalancerVault = 71,400 in
 * src/routing/gasModel.ts. Measured on the devnet's real Vault and pools (test/tx/routers/balancerVault.devnet.test.ts
 * prints the table; `npx tap test/tx/routers/balancerVault.devnet.test.ts`), each case's swap transaction to a fresh
 * recipient, gasUsed (first run on the devnet's untraded pools, later run after it; equal where one number is shown):
 *
 *   shape                                               exactIn            exactOut
 *   swap, weighted 80UNI-20WETH (2 tokens)              106,439            108,397
 *   swap, weighted 50WBTC-50USDC (2 tokens)             105,908            106,000
 *   swap, stable USDC-USDT-DAI (3 tokens + BPT)         151,206 / 157,649  156,730 / 156,713
 *   swap, stable USDT-rDAI (rate provider)              154,158 / 148,050  147,126
 *     (first: the rate cache had expired and the swap re-read the provider)
 *   batchSwap WBTC -> USDC -> DAI (weighted, stable)    196,395 / 196,412  196,506 / 198,799
 *   batchSwap of one hop (hand-encoded), 50WBTC-50USDC  116,112
 *   batchSwap of one hop (hand-encoded), USDC-USDT-DAI  166,226
 *   swap, native ETH in -> UNI (80UNI-20WETH)           110,579            108,597 (unused value refunded)
 *   swap, UNI -> native ETH out                         124,317            126,275
 *
 * Per hop, as a hop adds to a batchSwap (the two-hop batchSwap less the one-hop batchSwap of the other pool): weighted
 * 196,395 - 166,226 = 30,169 -> 30,200; stable 196,395 - 116,112 = 80,283 -> 80,300 (the stable pools' Newton
 * iterations vary the single swaps by about ±5,000). Per call: the minimax fit of the Vault's call over the cases above
 * with these hop figures and the shared native / exact-output figures of GAS: 71,400, every case within ±7.5% (a swap
 * costs about 5,000 less than that, a batchSwap about 5,000 more). No cold slots (the Vault's balances are never zero
 * while a pool trades), no saving for further exact-output hops (the batchSwap figures are the same both ways).
 */

/** A weighted pool's swap inside a Vault call (the pool's onSwap and the Vault's balance update). */
export const BALANCER_WEIGHTED_GAS: ProtocolGas = { hop: 30_200n, tick: 0n, exactOutNextHop: 0n, coldSlot: 17_100n, tickMove: 0n };

/** A composable stable pool's swap inside a Vault call (its invariant's iterations, a rate provider's rate). */
export const BALANCER_STABLE_GAS: ProtocolGas = { hop: 80_300n, tick: 0n, exactOutNextHop: 0n, coldSlot: 17_100n, tickMove: 0n };
