import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import t from 'tap';
import { type Abi, decodeFunctionData, type Hex } from 'viem';
import { buildWrapSteps, type WrapStepsParams } from '../../src/tx/buildWrapSteps.ts';
import { checkMeasuredLimit, withoutGasLimit } from '../helpers/measuredLimit.ts';

const require = createRequire(import.meta.url);
const WETH9_ABI = (JSON.parse(readFileSync(require.resolve('@uniswap/v2-periphery/build/WETH9.json'), 'utf8')) as { abi: Abi }).abi;
const decode = (data: Hex): unknown => decodeFunctionData({ abi: WETH9_ABI, data });

const NATIVE = { address: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE', symbol: 'ETH', decimals: 18 };
const WETH = { address: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2', symbol: 'WETH', decimals: 18 };
const USDC = { address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', symbol: 'USDC', decimals: 6 };
const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const RECIPIENT = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

const params = (over: Partial<WrapStepsParams>): WrapStepsParams => ({
  chainId: 10,
  tokenIn: NATIVE,
  tokenOut: WETH,
  wrappedNativeToken: WETH.address,
  amount: 1_500_000_000_000_000_000n,
  recipient: WALLET,
  wallet: WALLET,
  ...over,
});

t.test('buildWrapSteps: wrap to the wallet is one deposit() with value', async (t) => {
  const steps = buildWrapSteps(params({}));
  checkMeasuredLimit(t, steps[0]?.gasLimit, 'wrap');
  t.strictSame(
    steps.map((s) => ({ ...withoutGasLimit(s), data: decode(s.data) })),
    [
      {
        from: WALLET,
        amount: '1500000000000000000',
        chainId: 10,
        message: 'Wrap 1.5 ETH into WETH',
        to: WETH.address,
        data: { functionName: 'deposit', args: undefined },
        value: '1500000000000000000',
      },
    ],
  );
});

t.test('buildWrapSteps: wrap to another recipient adds a WETH transfer', async (t) => {
  const steps = buildWrapSteps(params({ recipient: RECIPIENT.toLowerCase() }));
  t.equal(steps.length, 2);
  checkMeasuredLimit(t, steps[1].gasLimit, 'sendErc20');
  t.strictSame(
    { ...withoutGasLimit(steps[1]), data: decode(steps[1].data) },
    {
      from: WALLET,
      amount: '1500000000000000000',
      chainId: 10,
      message: `Send 1.5 WETH to ${RECIPIENT}`,
      to: WETH.address,
      data: { functionName: 'transfer', args: [RECIPIENT, 1_500_000_000_000_000_000n] },
    },
  );
});

t.test('buildWrapSteps: unwrap is withdraw(amount) without approval; another recipient gets a native transfer', async (t) => {
  const own = buildWrapSteps(params({ tokenIn: WETH, tokenOut: NATIVE, amount: 1n }));
  checkMeasuredLimit(t, own[0]?.gasLimit, 'unwrap');
  t.strictSame(
    own.map((s) => ({ ...withoutGasLimit(s), data: decode(s.data) })),
    [
      {
        from: WALLET,
        amount: '1',
        chainId: 10,
        message: 'Unwrap 0.000000000000000001 WETH into ETH',
        to: WETH.address,
        data: { functionName: 'withdraw', args: [1n] },
      },
    ],
  );
  const other = buildWrapSteps(params({ tokenIn: WETH, tokenOut: NATIVE, recipient: RECIPIENT }));
  t.equal(other.length, 2);
  // A plain transfer of ether to an account costs exactly the 21,000 of a transaction (yellow paper G_transaction).
  checkMeasuredLimit(t, other[1].gasLimit, 'sendNative');
  t.ok(BigInt(other[1].gasLimit ?? 0) >= 21_000n, 'at least a bare transaction');
  t.strictSame(withoutGasLimit(other[1]), {
    from: WALLET,
    amount: '1500000000000000000',
    chainId: 10,
    message: `Send 1.5 ETH to ${RECIPIENT}`,
    to: RECIPIENT,
    data: '0x',
    value: '1500000000000000000',
  });
});

t.test('buildWrapSteps refuses anything but native <-> wrapped native', async (t) => {
  t.throws(() => buildWrapSteps(params({ tokenOut: USDC })), {
    name: 'StepBuildError',
    message: /is not a wrap or unwrap of 0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2$/,
  });
  t.throws(() => buildWrapSteps(params({ tokenIn: WETH, tokenOut: WETH })), { name: 'StepBuildError' });
  t.throws(() => buildWrapSteps(params({ amount: 0n })), { name: 'StepBuildError', message: 'amount: must be a positive uint256, got 0' });
});
