import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import t from 'tap';
import { type Abi, decodeFunctionData } from 'viem';
import { approveSteps } from '../../src/tx/approveStep.ts';
import { checkMeasuredLimit, withoutGasLimit } from '../helpers/measuredLimit.ts';

const require = createRequire(import.meta.url);
const ERC20_ABI = (JSON.parse(readFileSync(require.resolve('@uniswap/v2-core/build/IERC20.json'), 'utf8')) as { abi: Abi }).abi;

const USDC = { address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', symbol: 'USDC', decimals: 6 };
const SPOKE_POOL = '0x5c7BCd6E7De5423a257D81B442095A1a6ced35C5';
const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

t.test(
  "approveSteps: one approval of exactly the amount, `to` the token, `spender` the contract, a gasLimit covering the devnet's approvals",
  async (t) => {
    const steps = approveSteps({
      chainId: 1,
      token: USDC,
      spender: SPOKE_POOL.toLowerCase(),
      spenderName: 'Across SpokePool',
      amount: 250_000_001n,
      wallet: WALLET,
    });
    t.equal(steps.length, 1);
    const step = steps[0];
    checkMeasuredLimit(t, step.gasLimit, 'approve');
    t.strictSame(
      { ...withoutGasLimit(step), data: decodeFunctionData({ abi: ERC20_ABI, data: step.data }) },
      {
        message: 'Approve 250.000001 USDC for Across SpokePool',
        from: WALLET,
        to: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
        data: { functionName: 'approve', args: [SPOKE_POOL, 250_000_001n] },
        amount: '250000001',
        chainId: 1,
        spender: SPOKE_POOL,
      },
    );
    // approve(address,uint256) selector, then the two 32-byte words
    t.equal(step.data.slice(0, 10), '0x095ea7b3');
    t.equal(step.data.length, 2 + 8 + 64 * 2);
  },
);

t.test('approveSteps refuses the native asset, a zero amount and bad addresses', async (t) => {
  const ok = { chainId: 1, token: USDC, spender: SPOKE_POOL, spenderName: 'Across SpokePool', amount: 1n, wallet: WALLET };
  const native = { address: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE', symbol: 'ETH', decimals: 18 };
  t.throws(() => approveSteps({ ...ok, token: native }), { name: 'StepBuildError', message: 'token: the native asset needs no approval' });
  t.throws(() => approveSteps({ ...ok, amount: 0n }), { name: 'StepBuildError', message: 'amount: must be a positive uint256, got 0' });
  t.throws(() => approveSteps({ ...ok, amount: 1n << 256n }), { name: 'StepBuildError', message: /^amount: must be a positive uint256/ });
  t.throws(() => approveSteps({ ...ok, spender: 'nope' }), {
    name: 'StepBuildError',
    message: 'spender: "nope" is not a valid EVM address',
  });
});

t.test('approveSteps: a token flagged approvalReset is approved to 0 first, then to the amount', async (t) => {
  const USDT = { address: '0xdac17f958d2ee523a2206206994597c13d831ec7', symbol: 'USDT', decimals: 6, approvalReset: true as const };
  const steps = approveSteps({
    chainId: 1,
    token: USDT,
    spender: SPOKE_POOL,
    spenderName: 'Across SpokePool',
    amount: 5_000_000n,
    wallet: WALLET,
  });
  for (const step of steps) checkMeasuredLimit(t, step.gasLimit, 'approve', step.message);
  t.strictSame(
    steps.map((step) => ({ ...withoutGasLimit(step), data: decodeFunctionData({ abi: ERC20_ABI, data: step.data }) })),
    [
      {
        message: 'Reset the USDT allowance of Across SpokePool to 0',
        from: WALLET,
        to: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
        data: { functionName: 'approve', args: [SPOKE_POOL, 0n] },
        amount: '0',
        chainId: 1,
        spender: SPOKE_POOL,
      },
      {
        message: 'Approve 5 USDT for Across SpokePool',
        from: WALLET,
        to: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
        data: { functionName: 'approve', args: [SPOKE_POOL, 5_000_000n] },
        amount: '5000000',
        chainId: 1,
        spender: SPOKE_POOL,
      },
    ],
  );
});

t.test(
  "approveSteps with the wallet's current allowance: none when it covers the amount, the reset only over a non-zero one",
  async (t) => {
    const USDT = { address: '0xdac17f958d2ee523a2206206994597c13d831ec7', symbol: 'USDT', decimals: 6, approvalReset: true as const };
    const base = { chainId: 1, spender: SPOKE_POOL, spenderName: 'Across SpokePool', amount: 1_000_000n, wallet: WALLET };
    const messages = (token: typeof USDC | typeof USDT, allowance: bigint | undefined) =>
      approveSteps({ ...base, token, allowance }).map((s) => [s.message, s.amount]);
    const approve = (symbol: string) => [`Approve 1 ${symbol} for Across SpokePool`, '1000000'];
    const reset = ['Reset the USDT allowance of Across SpokePool to 0', '0'];
    for (const [allowance, usdc, usdt] of [
      [undefined, [approve('USDC')], [reset, approve('USDT')]],
      [0n, [approve('USDC')], [approve('USDT')]],
      [1n, [approve('USDC')], [reset, approve('USDT')]],
      [999_999n, [approve('USDC')], [reset, approve('USDT')]],
      [1_000_000n, [], []],
      [(1n << 256n) - 1n, [], []],
    ] as const) {
      t.strictSame(messages(USDC, allowance), usdc, `USDC, allowance ${allowance}`);
      t.strictSame(messages(USDT, allowance), usdt, `USDT, allowance ${allowance}`);
    }
  },
);
