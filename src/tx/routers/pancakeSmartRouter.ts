import { pancakeSmartRouterAbi } from '../abis.ts';
import type { RouterEncoder } from './RouterEncoder.ts';
import { swapRouter02Encoder } from './swapRouter02.ts';

/**
 * PancakeSwap's SmartRouter (BNB Smart Chain's "PancakeSwap V3" router, catalogue v3RouterKind `PancakeSmartRouter`):
 * its v3 and v2 functions, multicall and payments have SwapRouter02's selectors and arguments (src/tx/abis.ts
 * pancakeSmartRouterAbi), so it takes SwapRouter02's calls: every route in one `multicall(deadline, bytes[])`, v3
 * sections as exactInputSingle / exactInput (exact output: exactOutputSingle / exactOutput), v2 sections as
 * swapExactTokensForTokens, ADDRESS_THIS / CONTRACT_BALANCE between sections, sweepToken / unwrapWETH9 / refundETH
 * to close (see src/tx/routers/swapRouter02.ts). The router computes each v3 pool's address from PancakeSwap's pool
 * deployer (catalogue v3PoolDeployerAddress), not the factory.
 */
export const pancakeSmartRouter: RouterEncoder = swapRouter02Encoder('PancakeSwap SmartRouter', pancakeSmartRouterAbi);
