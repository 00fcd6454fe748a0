import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import t from 'tap';
import { type Abi, type AbiFunction, toFunctionSignature } from 'viem';
import {
  balancerVaultAbi,
  erc20Abi,
  permit2Abi,
  swapRouter02Abi,
  swapRouterAbi,
  uniswapV2Router02Abi,
  universalRouterAbi,
  weth9Abi,
} from '../../src/tx/abis.ts';

const require = createRequire(import.meta.url);
const artifact = (path: string): Abi => (JSON.parse(readFileSync(require.resolve(path), 'utf8')) as { abi: Abi }).abi;

/** Each fragment we encode must be a function of the real compiled contract: same signature, same mutability. */
function checkAgainst(ours: readonly AbiFunction[], theirs: Abi): void {
  const byName = new Map<string, AbiFunction>();
  for (const item of theirs) if (item.type === 'function') byName.set(toFunctionSignature(item), item);
  for (const fn of ours) {
    const signature = toFunctionSignature(fn);
    const real = byName.get(signature);
    t.ok(real, `${signature} exists in the artifact`);
    if (!real) continue;
    t.equal(fn.stateMutability, real.stateMutability, `${signature} mutability`);
    t.strictSame(
      fn.inputs.map((i) => i.type),
      real.inputs.map((i) => i.type),
      `${signature} input types`,
    );
  }
}

checkAgainst(uniswapV2Router02Abi, artifact('@uniswap/v2-periphery/build/UniswapV2Router02.json'));
checkAgainst(weth9Abi, artifact('@uniswap/v2-periphery/build/WETH9.json'));
checkAgainst(swapRouterAbi, artifact('@uniswap/v3-periphery/artifacts/contracts/SwapRouter.sol/SwapRouter.json'));
checkAgainst(swapRouter02Abi, artifact('@uniswap/swap-router-contracts/artifacts/contracts/SwapRouter02.sol/SwapRouter02.json'));
// ERC-20: Uniswap v2-core's compiled IERC20 interface.
checkAgainst(erc20Abi, artifact('@uniswap/v2-core/build/IERC20.json'));
checkAgainst(universalRouterAbi, artifact('@uniswap/universal-router/artifacts/contracts/UniversalRouter.sol/UniversalRouter.json'));
// Permit2: v4-periphery's compiled IAllowanceTransfer interface (Permit2 itself ships no artifact).
checkAgainst(permit2Abi, artifact('@uniswap/v4-periphery/foundry-out/IAllowanceTransfer.sol/IAllowanceTransfer.default.json'));
checkAgainst(balancerVaultAbi, artifact('@balancer-labs/v2-deployments/dist/tasks/20210418-vault/artifact/Vault.json'));
