/**
 * ABI fragments of the contract functions the service encodes calls for, and nothing else.
 * Each fragment matches the compiled artifact of the contract named beside it (checked in test/tx).
 */

/** ERC-20 `approve` and `transfer` (EIP-20). */
export const erc20Abi = [
  {
    type: 'function',
    name: 'approve',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'spender', type: 'address' },
      { name: 'amount', type: 'uint256' },
    ],
    outputs: [{ name: '', type: 'bool' }],
  },
  {
    type: 'function',
    name: 'transfer',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'amount', type: 'uint256' },
    ],
    outputs: [{ name: '', type: 'bool' }],
  },
] as const;

/** WETH9 (`@uniswap/v2-periphery/build/WETH9.json`): wrap and unwrap the native asset 1:1. */
export const weth9Abi = [
  { type: 'function', name: 'deposit', stateMutability: 'payable', inputs: [], outputs: [] },
  {
    type: 'function',
    name: 'withdraw',
    stateMutability: 'nonpayable',
    inputs: [{ name: 'wad', type: 'uint256' }],
    outputs: [],
  },
] as const;

/**
 * UniswapV2Router02 (`@uniswap/v2-periphery/build/UniswapV2Router02.json`): exact-input swaps, and exact-output swaps
 * (`getAmountsIn` first, each pair asked for exactly its amount; `swapETHForExactTokens` refunds unused value).
 */
export const uniswapV2Router02Abi = [
  {
    type: 'function',
    name: 'swapExactTokensForTokens',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'amountIn', type: 'uint256' },
      { name: 'amountOutMin', type: 'uint256' },
      { name: 'path', type: 'address[]' },
      { name: 'to', type: 'address' },
      { name: 'deadline', type: 'uint256' },
    ],
    outputs: [{ name: 'amounts', type: 'uint256[]' }],
  },
  {
    type: 'function',
    name: 'swapExactETHForTokens',
    stateMutability: 'payable',
    inputs: [
      { name: 'amountOutMin', type: 'uint256' },
      { name: 'path', type: 'address[]' },
      { name: 'to', type: 'address' },
      { name: 'deadline', type: 'uint256' },
    ],
    outputs: [{ name: 'amounts', type: 'uint256[]' }],
  },
  {
    type: 'function',
    name: 'swapExactTokensForETH',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'amountIn', type: 'uint256' },
      { name: 'amountOutMin', type: 'uint256' },
      { name: 'path', type: 'address[]' },
      { name: 'to', type: 'address' },
      { name: 'deadline', type: 'uint256' },
    ],
    outputs: [{ name: 'amounts', type: 'uint256[]' }],
  },
  {
    type: 'function',
    name: 'swapTokensForExactTokens',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'amountOut', type: 'uint256' },
      { name: 'amountInMax', type: 'uint256' },
      { name: 'path', type: 'address[]' },
      { name: 'to', type: 'address' },
      { name: 'deadline', type: 'uint256' },
    ],
    outputs: [{ name: 'amounts', type: 'uint256[]' }],
  },
  {
    type: 'function',
    name: 'swapTokensForExactETH',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'amountOut', type: 'uint256' },
      { name: 'amountInMax', type: 'uint256' },
      { name: 'path', type: 'address[]' },
      { name: 'to', type: 'address' },
      { name: 'deadline', type: 'uint256' },
    ],
    outputs: [{ name: 'amounts', type: 'uint256[]' }],
  },
  {
    type: 'function',
    name: 'swapETHForExactTokens',
    stateMutability: 'payable',
    inputs: [
      { name: 'amountOut', type: 'uint256' },
      { name: 'path', type: 'address[]' },
      { name: 'to', type: 'address' },
      { name: 'deadline', type: 'uint256' },
    ],
    outputs: [{ name: 'amounts', type: 'uint256[]' }],
  },
] as const;

/**
 * Payment helpers shared by both v3 routers (v3-periphery `PeripheryPayments`): pay the router's whole balance of a
 * token (`sweepToken`) or of WETH as the native asset (`unwrapWETH9`) to a recipient, reverting below the minimum;
 * return unspent native value to the caller (`refundETH`).
 */
export const peripheryPaymentsAbi = [
  {
    type: 'function',
    name: 'sweepToken',
    stateMutability: 'payable',
    inputs: [
      { name: 'token', type: 'address' },
      { name: 'amountMinimum', type: 'uint256' },
      { name: 'recipient', type: 'address' },
    ],
    outputs: [],
  },
  {
    type: 'function',
    name: 'unwrapWETH9',
    stateMutability: 'payable',
    inputs: [
      { name: 'amountMinimum', type: 'uint256' },
      { name: 'recipient', type: 'address' },
    ],
    outputs: [],
  },
  { type: 'function', name: 'refundETH', stateMutability: 'payable', inputs: [], outputs: [] },
] as const;

/**
 * Uniswap v3 SwapRouter (`@uniswap/v3-periphery/artifacts/contracts/SwapRouter.sol/SwapRouter.json`):
 * the deadline is a field of the swap params; `multicall(bytes[])` has none. `exactInput` takes the packed path
 * `tokenIn, fee, token, fee, …, tokenOut` (20-byte addresses, 3-byte fees); `exactOutput` the same path reversed
 * (`tokenOut, fee, …, tokenIn`): it swaps from the output backwards, each pool paid from the next one's callback.
 */
export const swapRouterAbi = [
  {
    type: 'function',
    name: 'exactInput',
    stateMutability: 'payable',
    inputs: [
      {
        name: 'params',
        type: 'tuple',
        components: [
          { name: 'path', type: 'bytes' },
          { name: 'recipient', type: 'address' },
          { name: 'deadline', type: 'uint256' },
          { name: 'amountIn', type: 'uint256' },
          { name: 'amountOutMinimum', type: 'uint256' },
        ],
      },
    ],
    outputs: [{ name: 'amountOut', type: 'uint256' }],
  },
  {
    type: 'function',
    name: 'exactInputSingle',
    stateMutability: 'payable',
    inputs: [
      {
        name: 'params',
        type: 'tuple',
        components: [
          { name: 'tokenIn', type: 'address' },
          { name: 'tokenOut', type: 'address' },
          { name: 'fee', type: 'uint24' },
          { name: 'recipient', type: 'address' },
          { name: 'deadline', type: 'uint256' },
          { name: 'amountIn', type: 'uint256' },
          { name: 'amountOutMinimum', type: 'uint256' },
          { name: 'sqrtPriceLimitX96', type: 'uint160' },
        ],
      },
    ],
    outputs: [{ name: 'amountOut', type: 'uint256' }],
  },
  {
    type: 'function',
    name: 'exactOutputSingle',
    stateMutability: 'payable',
    inputs: [
      {
        name: 'params',
        type: 'tuple',
        components: [
          { name: 'tokenIn', type: 'address' },
          { name: 'tokenOut', type: 'address' },
          { name: 'fee', type: 'uint24' },
          { name: 'recipient', type: 'address' },
          { name: 'deadline', type: 'uint256' },
          { name: 'amountOut', type: 'uint256' },
          { name: 'amountInMaximum', type: 'uint256' },
          { name: 'sqrtPriceLimitX96', type: 'uint160' },
        ],
      },
    ],
    outputs: [{ name: 'amountIn', type: 'uint256' }],
  },
  {
    type: 'function',
    name: 'exactOutput',
    stateMutability: 'payable',
    inputs: [
      {
        name: 'params',
        type: 'tuple',
        components: [
          { name: 'path', type: 'bytes' },
          { name: 'recipient', type: 'address' },
          { name: 'deadline', type: 'uint256' },
          { name: 'amountOut', type: 'uint256' },
          { name: 'amountInMaximum', type: 'uint256' },
        ],
      },
    ],
    outputs: [{ name: 'amountIn', type: 'uint256' }],
  },
  {
    type: 'function',
    name: 'multicall',
    stateMutability: 'payable',
    inputs: [{ name: 'data', type: 'bytes[]' }],
    outputs: [{ name: 'results', type: 'bytes[]' }],
  },
  ...peripheryPaymentsAbi,
] as const;

/**
 * Uniswap SwapRouter02 (`@uniswap/swap-router-contracts/artifacts/contracts/SwapRouter02.sol/SwapRouter02.json`):
 * `IV3SwapRouter` params have no deadline; `multicall(uint256 deadline, bytes[] data)` checks it. Its v2 section,
 * `IV2SwapRouter.swapExactTokensForTokens(amountIn, amountOutMin, path, to)`, swaps the pairs of the v2 factory
 * it was deployed with. An `amountIn` of 0 (`Constants.CONTRACT_BALANCE`) makes `exactInput`, `exactInputSingle`
 * and `swapExactTokensForTokens` swap the router's whole balance of the section's first token, paid by the router.
 * `exactOutputSingle` / `exactOutput` (reversed packed path, as SwapRouter's) are always paid by the caller.
 */
export const swapRouter02Abi = [
  {
    type: 'function',
    name: 'exactInput',
    stateMutability: 'payable',
    inputs: [
      {
        name: 'params',
        type: 'tuple',
        components: [
          { name: 'path', type: 'bytes' },
          { name: 'recipient', type: 'address' },
          { name: 'amountIn', type: 'uint256' },
          { name: 'amountOutMinimum', type: 'uint256' },
        ],
      },
    ],
    outputs: [{ name: 'amountOut', type: 'uint256' }],
  },
  {
    type: 'function',
    name: 'swapExactTokensForTokens',
    stateMutability: 'payable',
    inputs: [
      { name: 'amountIn', type: 'uint256' },
      { name: 'amountOutMin', type: 'uint256' },
      { name: 'path', type: 'address[]' },
      { name: 'to', type: 'address' },
    ],
    outputs: [{ name: 'amountOut', type: 'uint256' }],
  },
  {
    type: 'function',
    name: 'exactInputSingle',
    stateMutability: 'payable',
    inputs: [
      {
        name: 'params',
        type: 'tuple',
        components: [
          { name: 'tokenIn', type: 'address' },
          { name: 'tokenOut', type: 'address' },
          { name: 'fee', type: 'uint24' },
          { name: 'recipient', type: 'address' },
          { name: 'amountIn', type: 'uint256' },
          { name: 'amountOutMinimum', type: 'uint256' },
          { name: 'sqrtPriceLimitX96', type: 'uint160' },
        ],
      },
    ],
    outputs: [{ name: 'amountOut', type: 'uint256' }],
  },
  {
    type: 'function',
    name: 'exactOutputSingle',
    stateMutability: 'payable',
    inputs: [
      {
        name: 'params',
        type: 'tuple',
        components: [
          { name: 'tokenIn', type: 'address' },
          { name: 'tokenOut', type: 'address' },
          { name: 'fee', type: 'uint24' },
          { name: 'recipient', type: 'address' },
          { name: 'amountOut', type: 'uint256' },
          { name: 'amountInMaximum', type: 'uint256' },
          { name: 'sqrtPriceLimitX96', type: 'uint160' },
        ],
      },
    ],
    outputs: [{ name: 'amountIn', type: 'uint256' }],
  },
  {
    type: 'function',
    name: 'exactOutput',
    stateMutability: 'payable',
    inputs: [
      {
        name: 'params',
        type: 'tuple',
        components: [
          { name: 'path', type: 'bytes' },
          { name: 'recipient', type: 'address' },
          { name: 'amountOut', type: 'uint256' },
          { name: 'amountInMaximum', type: 'uint256' },
        ],
      },
    ],
    outputs: [{ name: 'amountIn', type: 'uint256' }],
  },
  {
    type: 'function',
    name: 'multicall',
    stateMutability: 'payable',
    inputs: [
      { name: 'deadline', type: 'uint256' },
      { name: 'data', type: 'bytes[]' },
    ],
    outputs: [{ name: '', type: 'bytes[]' }],
  },
  ...peripheryPaymentsAbi,
] as const;

/**
 * PancakeSwap's SmartRouter (BNB Smart Chain `0x13f4EA83…8Dd4`; no package ships its artifact, `@pancakeswap/smart-router`
 * ships its ABI as `SwapRouter.ABI`): its v3 functions (`exactInputSingle`, `exactInput`, `exactOutputSingle`,
 * `exactOutput`, IV3SwapRouter's params without a deadline), v2 `swapExactTokensForTokens(amountIn, amountOutMin, path,
 * to)`, `multicall(uint256 deadline, bytes[])` and PeripheryPayments are SwapRouter02's, selector for selector and
 * argument for argument (test/tx/routers/pancakeSmartRouter.test.ts checks each call against that ABI), and so are its
 * `Constants` (ADDRESS_THIS, CONTRACT_BALANCE). It also swaps PancakeSwap StableSwap pools, which are not used here.
 */
export const pancakeSmartRouterAbi = swapRouter02Abi;

/**
 * SwapRouter02's `Constants.ADDRESS_THIS` (swap-router-contracts `libraries/Constants.sol`): as a swap recipient
 * it means the router itself, which then swaps on or pays out through `sweepToken` / `unwrapWETH9`.
 */
export const SWAP_ROUTER02_ADDRESS_THIS = '0x0000000000000000000000000000000000000002';

/**
 * SwapRouter02's `Constants.CONTRACT_BALANCE`: as `amountIn` of a swap, the router's whole balance of the
 * section's first token, which the router pays (V3SwapRouter / V2SwapRouter `hasAlreadyPaid`).
 */
export const SWAP_ROUTER02_CONTRACT_BALANCE = 0n;

/**
 * Uniswap UniversalRouter 2.x (`@uniswap/universal-router/artifacts/contracts/UniversalRouter.sol/UniversalRouter.json`):
 * `execute(commands, inputs, deadline)`, one byte per command with its ABI-encoded input (src/tx/routers/universalRouter.ts).
 */
export const universalRouterAbi = [
  {
    type: 'function',
    name: 'execute',
    stateMutability: 'payable',
    inputs: [
      { name: 'commands', type: 'bytes' },
      { name: 'inputs', type: 'bytes[]' },
      { name: 'deadline', type: 'uint256' },
    ],
    outputs: [],
  },
] as const;

/**
 * Permit2's AllowanceTransfer (`@uniswap/v4-periphery/lib/permit2/src/interfaces/IAllowanceTransfer.sol`): the
 * allowance a spender (the Universal Router) may pull of a token, set by `approve` (a plain transaction) or by a
 * signed PermitSingle; `allowance` reads it with the owner's next nonce.
 */
export const permit2Abi = [
  {
    type: 'function',
    name: 'approve',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'token', type: 'address' },
      { name: 'spender', type: 'address' },
      { name: 'amount', type: 'uint160' },
      { name: 'expiration', type: 'uint48' },
    ],
    outputs: [],
  },
  {
    type: 'function',
    name: 'allowance',
    stateMutability: 'view',
    inputs: [
      { name: 'user', type: 'address' },
      { name: 'token', type: 'address' },
      { name: 'spender', type: 'address' },
    ],
    outputs: [
      { name: 'amount', type: 'uint160' },
      { name: 'expiration', type: 'uint48' },
      { name: 'nonce', type: 'uint48' },
    ],
  },
] as const;

/**
 * Across SpokePool (`@across-protocol/contracts/dist/evm/artifacts/Ethereum_SpokePool.sol/Ethereum_SpokePool.json`):
 * `depositNow`, where the contract sets quoteTimestamp to the block time and fillDeadline to block time +
 * fillDeadlineOffset. Addresses are left-padded bytes32.
 */
export const acrossSpokePoolAbi = [
  {
    type: 'function',
    name: 'depositNow',
    stateMutability: 'payable',
    inputs: [
      { name: 'depositor', type: 'bytes32' },
      { name: 'recipient', type: 'bytes32' },
      { name: 'inputToken', type: 'bytes32' },
      { name: 'outputToken', type: 'bytes32' },
      { name: 'inputAmount', type: 'uint256' },
      { name: 'outputAmount', type: 'uint256' },
      { name: 'destinationChainId', type: 'uint256' },
      { name: 'exclusiveRelayer', type: 'bytes32' },
      { name: 'fillDeadlineOffset', type: 'uint32' },
      { name: 'exclusivityParameter', type: 'uint32' },
      { name: 'message', type: 'bytes' },
    ],
    outputs: [],
  },
] as const;

/** Balancer v2 IVault.FundManagement: who pays the swap's input and who receives its output. */
const balancerFundManagement = {
  name: 'funds',
  type: 'tuple',
  components: [
    { name: 'sender', type: 'address' },
    { name: 'fromInternalBalance', type: 'bool' },
    { name: 'recipient', type: 'address' },
    { name: 'toInternalBalance', type: 'bool' },
  ],
} as const;

/**
 * Balancer v2 Vault (`@balancer-labs/v2-deployments/dist/tasks/20210418-vault/abi/Vault.json`): `swap` through one
 * pool and `batchSwap` through several, `kind` 0 GIVEN_IN / 1 GIVEN_OUT, assets as addresses (the zero address is
 * native ETH, which the Vault wraps or unwraps with its WETH).
 */
export const balancerVaultAbi = [
  {
    type: 'function',
    name: 'swap',
    stateMutability: 'payable',
    inputs: [
      {
        name: 'singleSwap',
        type: 'tuple',
        components: [
          { name: 'poolId', type: 'bytes32' },
          { name: 'kind', type: 'uint8' },
          { name: 'assetIn', type: 'address' },
          { name: 'assetOut', type: 'address' },
          { name: 'amount', type: 'uint256' },
          { name: 'userData', type: 'bytes' },
        ],
      },
      balancerFundManagement,
      { name: 'limit', type: 'uint256' },
      { name: 'deadline', type: 'uint256' },
    ],
    outputs: [{ name: 'amountCalculated', type: 'uint256' }],
  },
  {
    type: 'function',
    name: 'batchSwap',
    stateMutability: 'payable',
    inputs: [
      { name: 'kind', type: 'uint8' },
      {
        name: 'swaps',
        type: 'tuple[]',
        components: [
          { name: 'poolId', type: 'bytes32' },
          { name: 'assetInIndex', type: 'uint256' },
          { name: 'assetOutIndex', type: 'uint256' },
          { name: 'amount', type: 'uint256' },
          { name: 'userData', type: 'bytes' },
        ],
      },
      { name: 'assets', type: 'address[]' },
      balancerFundManagement,
      { name: 'limits', type: 'int256[]' },
      { name: 'deadline', type: 'uint256' },
    ],
    outputs: [{ name: 'assetDeltas', type: 'int256[]' }],
  },
] as const;
