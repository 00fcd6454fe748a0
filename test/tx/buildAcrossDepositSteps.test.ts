// buildAcrossDepositSteps: calldata decoded with the Across SpokePool artifact's own ABI (the oracle), the ABI
// fragment in src/tx/abis.ts compared with the artifact, native vs ERC-20 input, and the parameter refusals.
import t from 'tap';
import { decodeFunctionData, getAddress, type Hex } from 'viem';
import { acrossSpokePoolAbi } from '../../src/tx/abis.ts';
import { type AcrossDepositParams, buildAcrossDepositSteps } from '../../src/tx/buildAcrossDepositSteps.ts';
import { StepBuildError } from '../../src/tx/StepBuildError.ts';
import { artifactAbi } from '../helpers/devnetWallet.ts';
import { checkMeasuredLimit, withoutGasLimit } from '../helpers/measuredLimit.ts';

const SPOKE_POOL_ABI = artifactAbi('@across-protocol/contracts/dist/evm/artifacts/Ethereum_SpokePool.sol/Ethereum_SpokePool.json');
const ERC20_ABI = artifactAbi('@uniswap/v2-core/build/IERC20.json');

const SPOKE = getAddress('0x5c7bcd6e7de5423a257d81b442095a1a6ced35c5');
const WETH = getAddress('0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2');
const USDC = getAddress('0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48');
const USDC_BASE = getAddress('0x833589fcd6edb6e08f4c7c32d4f71b54bda02913');
const WETH_BASE = getAddress('0x4200000000000000000000000000000000000006');
const WALLET = getAddress('0x00000000000000000000000000000000000000bb');
const RECIPIENT = getAddress('0x00000000000000000000000000000000000000aa');
const word = (address: string): string => `0x${'0'.repeat(24)}${address.slice(2).toLowerCase()}`;

const usdc: AcrossDepositParams = {
  chainId: 1,
  spokePool: SPOKE,
  bridgeName: 'Across',
  inputToken: { address: USDC, symbol: 'USDC', decimals: 6 },
  wrappedNativeToken: WETH,
  outputToken: { address: USDC_BASE, symbol: 'USDC', decimals: 6 },
  receivedToken: { address: USDC_BASE, symbol: 'USDC', decimals: 6 },
  inputAmount: 1_500_250_000n,
  outputAmount: 1_498_999_000n,
  destinationChainId: 8453,
  destinationName: 'Base',
  recipient: RECIPIENT,
  wallet: WALLET,
  fillDeadlineOffsetSeconds: 10_800,
};

t.test("the depositNow fragment is the artifact's", async (t) => {
  const fromArtifact = SPOKE_POOL_ABI.find((x) => x.type === 'function' && x.name === 'depositNow') as unknown as {
    inputs: Array<{ name: string; type: string }>;
    stateMutability: string;
  };
  const mine = acrossSpokePoolAbi[0];
  t.strictSame(
    mine.inputs.map((i) => [i.name, i.type]),
    fromArtifact.inputs.map((i) => [i.name, i.type]),
  );
  t.equal(mine.stateMutability, fromArtifact.stateMutability);
});

t.test('ERC-20 input: exact approval for the SpokePool, then depositNow', async (t) => {
  const [approve, deposit] = buildAcrossDepositSteps(usdc);
  t.match(approve, {
    message: 'Approve 1500.25 USDC for Across SpokePool',
    from: WALLET,
    to: USDC,
    amount: '1500250000',
    chainId: 1,
    spender: SPOKE,
  });
  t.strictSame(decodeFunctionData({ abi: ERC20_ABI, data: approve!.data }).args, [SPOKE, 1_500_250_000n]);
  checkMeasuredLimit(t, deposit?.gasLimit, 'acrossDepositErc20');
  t.strictSame(withoutGasLimit(deposit!), {
    message: `Bridge 1500.25 USDC to Base through Across: 1498.999 USDC to ${RECIPIENT}`,
    from: WALLET,
    to: SPOKE,
    data: deposit!.data,
    amount: '1500250000',
    chainId: 1,
  });
  const decoded = decodeFunctionData({ abi: SPOKE_POOL_ABI, data: deposit!.data as Hex });
  t.equal(decoded.functionName, 'depositNow');
  t.strictSame(decoded.args, [
    word(WALLET),
    word(RECIPIENT),
    word(USDC),
    word(USDC_BASE),
    1_500_250_000n,
    1_498_999_000n,
    8453n,
    `0x${'0'.repeat(64)}`,
    10_800,
    0,
    '0x',
  ]);
});

t.test('native input: no approval, WETH as inputToken, value = inputAmount; the message names ETH at both ends', async (t) => {
  const steps = buildAcrossDepositSteps({
    ...usdc,
    inputToken: { address: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE', symbol: 'ETH', decimals: 18 },
    outputToken: { address: WETH_BASE, symbol: 'WETH', decimals: 18 },
    receivedToken: { address: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE', symbol: 'ETH', decimals: 18 },
    inputAmount: 10n ** 18n,
    outputAmount: 999_550_000_000_000_000n,
  });
  t.equal(steps.length, 1);
  checkMeasuredLimit(t, steps[0].gasLimit, 'acrossDepositNative');
  t.match(steps[0], {
    message: `Bridge 1 ETH to Base through Across: 0.99955 ETH to ${RECIPIENT}`,
    value: '1000000000000000000',
    amount: '1000000000000000000',
  });
  const args = decodeFunctionData({ abi: SPOKE_POOL_ABI, data: steps[0].data as Hex }).args as readonly unknown[];
  t.strictSame([args[2], args[3], args[4], args[5]], [word(WETH), word(WETH_BASE), 10n ** 18n, 999_550_000_000_000_000n]);
});

t.test('refusals', async (t) => {
  const cases: Array<[Partial<AcrossDepositParams>, string]> = [
    [{ outputAmount: 0n }, 'outputAmount: must be a positive uint256, got 0'],
    [{ inputAmount: 1n << 256n }, `inputAmount: must be a positive uint256, got ${1n << 256n}`],
    [{ fillDeadlineOffsetSeconds: 0 }, 'fillDeadlineOffsetSeconds: must be a positive uint32, got 0'],
    [{ destinationChainId: 1 }, 'destinationChainId: must be a chain id other than 1, got 1'],
    [{ spokePool: '0x1234' }, 'spokePool: "0x1234" is not a valid EVM address'],
    [
      { outputToken: { address: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE', symbol: 'ETH', decimals: 18 } },
      'outputToken: must be an ERC-20 (the wrapped native token pays native)',
    ],
  ];
  for (const [change, message] of cases)
    t.throws(() => buildAcrossDepositSteps({ ...usdc, ...change }), new StepBuildError(message), message);
});

t.test('an input token flagged approvalReset: allowance reset to 0, approval, then depositNow', async (t) => {
  const steps = buildAcrossDepositSteps({ ...usdc, inputToken: { ...usdc.inputToken, symbol: 'USDT', approvalReset: true } });
  t.same(
    steps.map((s) => [s.message, s.to, s.spender, s.amount]),
    [
      ['Reset the USDT allowance of Across SpokePool to 0', USDC, SPOKE, '0'],
      ['Approve 1500.25 USDT for Across SpokePool', USDC, SPOKE, '1500250000'],
      [`Bridge 1500.25 USDT to Base through Across: 1498.999 USDC to ${RECIPIENT}`, SPOKE, undefined, '1500250000'],
    ],
  );
  t.strictSame(decodeFunctionData({ abi: ERC20_ABI, data: steps[0].data }).args, [SPOKE, 0n]);
});
