import type { ProtocolGas } from '../PoolProtocol.ts';

/*
 * Gas of Balancer v2 swaps through the Vault (src/tx/routers/balancerVault.ts), for the registry rows of the weighted
 * and stable kinds (PoolProtocol.gas) and the Vault's call figure (src/routing/gasModel.ts GAS.call.BalancerVault).
 * Measured on the devnet (test/tx/routers/balancerVault.devnet.test.ts prints the table): filled in below.
 */

/** A weighted pool's swap inside a Vault call (the pool's onSwap and the Vault's balance update). */
export const BALANCER_WEIGHTED_GAS: ProtocolGas = { hop: 60_000n, tick: 0n, exactOutNextHop: 0n, coldSlot: 17_100n, tickMove: 0n };

/** A composable stable pool's swap inside a Vault call (with a rate provider's rate cached or re-read). */
export const BALANCER_STABLE_GAS: ProtocolGas = { hop: 60_000n, tick: 0n, exactOutNextHop: 0n, coldSlot: 17_100n, tickMove: 0n };
