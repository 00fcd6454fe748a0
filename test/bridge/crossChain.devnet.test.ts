// Cross-chain quotes end to end on two chains: two devnets (31337 and 31338, each on its own port) with the real
// Uniswap contracts and a real Across SpokePool (Ethereum_SpokePool behind ERC1967Proxy, @across-protocol/contracts),
// both seeded into a temporary snapshot folder that the app (real pricing workers, as src/index.ts wires them) serves.
// For each case: POST /quotes; send the chain-A steps; read FundsDeposited from the deposit receipt and compare it with
// the quote; act as the relayer with fillRelay on chain B using the event's relay data; send the chain-B steps; the
// recipient must then hold exactly amountOut of tokenOut (the chain is the oracle). Both chains are reverted to the
// seeded state (evm_revert) after every case, so every quote is priced on current pool state.
import t, { type Test } from 'tap';
import { type Address, getAddress, type Hex, parseEventLogs, type TransactionReceipt, zeroHash } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { fundAccount } from '../../seeds/devnet/fundAccount.ts';
import { jsonRpc } from '../../seeds/devnet/jsonRpc.ts';
import { NATIVE_TOKEN_ADDRESS } from '../../src/catalog/Catalog.ts';
import type { Quote } from '../../src/quote/Quote.ts';
import { gasLimit } from '../../src/routing/gasModel.ts';
import type { Step } from '../../src/tx/Step.ts';
import { b32, SPOKE_POOL_ABI, startBridgeDevnets } from '../helpers/bridgeDevnets.ts';
import { type AcrossGasCase, writeAcrossGasFixture } from '../helpers/devnetGas.ts';
import { devnetWallet, freshAddress } from '../helpers/devnetWallet.ts';
import type { Answer } from '../helpers/testApp.ts';
import { warmPools } from '../helpers/warmPools.ts';

t.test('cross-chain quotes executed on two devnets through Across', async (t) => {
  // ---------- two chains, seeded, the app over them, and the relayer ----------

  const net = await startBridgeDevnets((fn) => t.teardown(fn));
  const { A, B, catalog, app, key, snapshotDir } = net;
  const [devA, devB] = [A.devnet, B.devnet];
  t.equal(A.spokePool, catalog.chain(31337)!.bridges[0].spokePoolAddress, 'the catalogue names the deployed SpokePool');
  const fresh = (label: string): Address => freshAddress(`bridge-e2e:${label}`);

  const TOKENS = {
    ETH: NATIVE_TOKEN_ADDRESS,
    WETH: devA.addresses.tokens.WETH,
    USDC: devA.addresses.tokens.USDC,
    USDT: devA.addresses.tokens.USDT,
    WBTC: devA.addresses.tokens.WBTC,
    DAI: devA.addresses.tokens.DAI,
  } as const;

  interface Case {
    readonly name: string;
    readonly tokenIn: keyof typeof TOKENS;
    readonly tokenOut: keyof typeof TOKENS;
    readonly amount: string;
    /** Expected shape of the chosen route. */
    readonly asset: string;
    readonly originSwap: boolean;
    readonly destinationSwap: boolean;
  }

  const CASES: readonly Case[] = [
    {
      name: 'USDC -> USDC (same asset)',
      tokenIn: 'USDC',
      tokenOut: 'USDC',
      amount: '2500.5',
      asset: 'USDC',
      originSwap: false,
      destinationSwap: false,
    },
    {
      name: 'ETH -> ETH (native both ends)',
      tokenIn: 'ETH',
      tokenOut: 'ETH',
      amount: '3.25',
      asset: 'ETH',
      originSwap: false,
      destinationSwap: false,
    },
    {
      name: 'WBTC -> USDC (swap, then bridge)',
      tokenIn: 'WBTC',
      tokenOut: 'USDC',
      amount: '0.4',
      asset: 'USDC',
      originSwap: true,
      destinationSwap: false,
    },
    {
      name: 'USDC -> WBTC (bridge, then swap)',
      tokenIn: 'USDC',
      tokenOut: 'WBTC',
      amount: '15000',
      asset: 'USDC',
      originSwap: false,
      destinationSwap: true,
    },
    {
      name: 'DAI -> WBTC (swap, bridge, swap)',
      tokenIn: 'DAI',
      tokenOut: 'WBTC',
      amount: '20000',
      asset: 'USDC',
      originSwap: true,
      destinationSwap: true,
    },
    {
      name: 'ETH -> USDT (native deposit, native fill to the wallet, then swap)',
      tokenIn: 'ETH',
      tokenOut: 'USDT',
      amount: '1.5',
      asset: 'ETH',
      originSwap: false,
      destinationSwap: true,
    },
  ];

  const acrossGas: AcrossGasCase[] = [];
  t.teardown(() => {
    if (process.env.RECORD_GAS_FIXTURE === '1' && acrossGas.length === 2 * CASES.length) writeAcrossGasFixture(acrossGas);
  });
  /** Each step's gasLimit comes from an estimate within 5% of the gas the chain used for it (the gas model's bound). */
  function checkStepGas(t: Test, steps: readonly Step[], receipts: readonly TransactionReceipt[]): void {
    for (const [i, r] of receipts.entries()) {
      const limit = BigInt(steps[i].gasLimit!);
      t.ok(
        r.gasUsed <= limit && gasLimit((r.gasUsed * 95n) / 100n) <= limit && limit <= gasLimit((r.gasUsed * 105n) / 100n),
        `"${steps[i].message}": gasUsed ${r.gasUsed}, gasLimit ${limit} from an estimate within 5% of it`,
      );
    }
  }
  // Every case on the devnets' never-traded pools, then on pools traded before (each pool both ways, a second
  // earlier: the quotes' deadlines follow the wall clock), seeded again.
  for (const pools of ['cold', 'warm'] as const) {
    if (pools === 'warm') {
      for (const [dev, slug] of [
        [devA, 'devnet'],
        [devB, 'devnet-b'],
      ] as const)
        await warmPools(
          dev.rpcUrl,
          devnetWallet(dev),
          catalog,
          catalog.chain(slug)!,
          privateKeyToAccount(dev.accounts[0].privateKey),
          1,
          snapshotDir,
        );
      const again = await net.seed();
      t.equal(again, 2, 'both devnets seeded again, their pools traded');
      app.reload();
    }
    for (const [index, c] of CASES.entries()) {
      await t.test(`${c.name} (${pools} pools)`, async (t) => {
        const [snapA, snapB] = await Promise.all([jsonRpc<Hex>(devA.rpcUrl, 'evm_snapshot'), jsonRpc<Hex>(devB.rpcUrl, 'evm_snapshot')]);
        t.teardown(async () => {
          await Promise.all([jsonRpc(devA.rpcUrl, 'evm_revert', [snapA]), jsonRpc(devB.rpcUrl, 'evm_revert', [snapB])]);
        });
        const wallet = privateKeyToAccount(devA.accounts[3 + index].privateKey);
        const recipient = fresh(c.name);
        const tokenIn = TOKENS[c.tokenIn];
        const tokenOut = TOKENS[c.tokenOut];

        const res = await app.request<Answer<Quote>>('POST', '/quotes', {
          body: {
            originChainId: 31337,
            destinationChainId: 31338,
            tokenIn,
            tokenOut,
            amount: c.amount,
            recipientAddress: recipient,
            walletAddress: wallet.address,
          },
          headers: { authorization: `Bearer ${key}` },
        });
        t.equal(res.status, 200, res.body?.message);
        const q = res.body.data;
        const bridge = q.bridge;
        if (!bridge) throw new Error(`no bridge extension on the quote: ${res.text.slice(0, 300)}`);
        t.match(bridge, { protocol: 'across', asset: c.asset }, `bridged asset ${c.asset}`);
        t.equal(bridge.originSwap !== null, c.originSwap, c.originSwap ? 'origin swap' : 'no origin swap');
        t.equal(bridge.destinationSwap !== null, c.destinationSwap, c.destinationSwap ? 'destination swap' : 'no destination swap');
        t.equal(q.route.dex, 'across');
        const steps = q.steps as Step[];
        const firstB = steps.findIndex((s) => s.chainId === 31338);
        const originSteps = firstB === -1 ? steps : steps.slice(0, firstB);
        const destinationSteps = firstB === -1 ? [] : steps.slice(firstB);
        t.ok(
          originSteps.every((s) => s.chainId === 31337) && destinationSteps.every((s) => s.chainId === 31338),
          'chain A steps, then chain B steps',
        );
        if (!c.destinationSwap) t.equal(q.amountOutMinimum, q.amountOut, 'no destination swap: the fill is exact, minimum = amountOut');

        // Chain A: fund the wallet, send the origin steps.
        const amountIn = BigInt(q.amountIn);
        if (tokenIn !== NATIVE_TOKEN_ADDRESS) await fundAccount(devA.rpcUrl, wallet.address, tokenIn as Address, amountIn);
        const receipts = await A.sendSteps(wallet, originSteps);
        const deposit = receipts[receipts.length - 1];
        checkStepGas(t, originSteps, receipts);
        // The chain as the oracle of the deposit's gas: its gasLimit covers the gas used, sized from an estimate within
        // 5% of it (the gas model's stated error).
        const depositLimit = BigInt(originSteps[originSteps.length - 1].gasLimit!);
        t.ok(
          deposit.gasUsed <= depositLimit &&
            gasLimit((deposit.gasUsed * 95n) / 100n) <= depositLimit &&
            depositLimit <= gasLimit((deposit.gasUsed * 105n) / 100n),
          `deposit gasUsed ${deposit.gasUsed}: gasLimit ${depositLimit} covers it, from an estimate within 5% of it`,
        );
        acrossGas.push({
          case: `${c.name} (${pools} pools)`,
          native: bridge.inputToken.address === NATIVE_TOKEN_ADDRESS,
          gasUsed: deposit.gasUsed.toString(),
        });
        const event = net.depositEvent(deposit);
        t.ok(event, 'FundsDeposited emitted');
        t.equal(getAddress(event!.address), A.spokePool, 'by the origin SpokePool');
        const block = await A.client.getBlock({ blockNumber: deposit.blockNumber });
        const inputToken = bridge.inputToken.address === NATIVE_TOKEN_ADDRESS ? TOKENS.WETH : bridge.inputToken.address;
        const ev = event!.args;
        t.strictSame(
          {
            inputToken: ev.inputToken,
            outputToken: ev.outputToken,
            inputAmount: ev.inputAmount,
            outputAmount: ev.outputAmount,
            destinationChainId: ev.destinationChainId,
            quoteTimestamp: ev.quoteTimestamp,
            fillDeadline: ev.fillDeadline,
            exclusivityDeadline: ev.exclusivityDeadline,
            depositor: ev.depositor,
            recipient: ev.recipient,
            exclusiveRelayer: ev.exclusiveRelayer,
            message: ev.message,
          },
          {
            inputToken: b32(inputToken),
            outputToken: b32(bridge.outputToken.address),
            inputAmount: BigInt(bridge.inputAmount),
            outputAmount: BigInt(bridge.outputAmount),
            destinationChainId: 31338n,
            quoteTimestamp: Number(block.timestamp),
            fillDeadline: Number(block.timestamp) + bridge.fillDeadlineOffsetSeconds,
            exclusivityDeadline: 0,
            depositor: b32(wallet.address),
            recipient: b32(c.destinationSwap ? wallet.address : recipient),
            exclusiveRelayer: zeroHash,
            message: '0x',
          },
          'FundsDeposited fields match the quote',
        );
        if (!c.destinationSwap) t.equal(ev.outputAmount, BigInt(q.amountOut), 'the deposit outputAmount is the quote amountOut');
        if (c.originSwap) {
          // The origin swap paid the wallet the quoted amountOut; the deposit took its minimum; the rest stays with the wallet.
          const surplus = BigInt(bridge.originSwap!.amountOut) - BigInt(bridge.originSwap!.amountOutMinimum);
          t.equal(
            await A.balanceOf(bridge.originSwap!.tokenOut.address, wallet.address),
            surplus,
            'surplus of the origin swap stays in the wallet',
          );
          t.equal(bridge.inputAmount, bridge.originSwap!.amountOutMinimum, 'deposit inputAmount = origin swap amountOutMinimum');
        }

        // Chain B: the relayer fills with the event's relay data.
        const fill = await net.fill(event!);
        const [filled] = parseEventLogs({ abi: SPOKE_POOL_ABI, logs: fill.logs, eventName: 'FilledRelay' }) as unknown as Array<{
          args: Record<string, unknown>;
        }>;
        t.match(
          filled!.args,
          { outputAmount: ev.outputAmount, depositId: ev.depositId, originChainId: 31337n, recipient: ev.recipient },
          'FilledRelay for this deposit',
        );

        // Chain B: the destination steps, from the wallet that received the fill.
        const walletB = privateKeyToAccount(devB.accounts[3 + index].privateKey);
        checkStepGas(t, destinationSteps, await B.sendSteps(walletB, destinationSteps));

        t.equal(
          await B.balanceOf(tokenOut, recipient),
          BigInt(q.amountOut),
          `recipient holds exactly amountOut ${q.amountOut} ${c.tokenOut}`,
        );
        if (c.destinationSwap) t.equal(q.amountOut, bridge.destinationSwap!.amountOut, "amountOut is the destination swap's quoted output");
      });
    }
  }
});
