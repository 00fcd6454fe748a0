import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { getAddress, type TransactionReceipt } from 'viem';
import { anvilBinary } from '../../seeds/devnet/startAnvil.ts';
import { type CatalogChain, NATIVE_TOKEN_ADDRESS } from '../../src/catalog/Catalog.ts';
import { POOL_NATIVE } from '../../src/routing/nativePools.ts';
import type { Route, Trade } from '../../src/routing/Trade.ts';
import type { Step } from '../../src/tx/Step.ts';

// Test support (not a test): the gas the devnet used for executed trades, recorded (RECORD_GAS_FIXTURE=1) by
// test/tx/buildTradeSteps.devnet.test.ts into test/fixtures/gas/devnetGasUsed.json and by the Universal Router devnet
// tests (test/tx/universalRouter.devnet.test.ts, universalRouterNative.devnet.test.ts) into
// devnetUniversalRouterGasUsed.json and devnetUniversalRouterNativeGasUsed.json, so that unit tests can hold the gas
// model to the chain's measurements without starting anvil.

/** The recorded trade fixtures, each written by one devnet test. */
export const TRADE_GAS_FIXTURES = {
  trades: 'devnetGasUsed.json',
  universalRouter: 'devnetUniversalRouterGasUsed.json',
  universalRouterNative: 'devnetUniversalRouterNativeGasUsed.json',
} as const;
export type TradeGasFixture = keyof typeof TRADE_GAS_FIXTURES;

const fixturePath = (file: string): string => fileURLToPath(new URL(`../fixtures/gas/${file}`, import.meta.url));

/** A leg's token as the fixture names it: its catalogue symbol, 'ETH' for native ETH as a v4 pool holds it. */
export const FIXTURE_NATIVE = 'ETH';

/** One leg of a recorded route: its protocol, the initialized ticks it crossed, the pool slots it wrote from zero. */
export interface DevnetGasLeg {
  readonly kind: string;
  /**
   * The tokens its pool takes and pays (symbols; FIXTURE_NATIVE for native ETH in a v4 pool): where a route meets
   * native ETH, the gas model reads its wraps and unwraps from them (nativeWork). Absent in cases recorded before.
   */
  readonly tokenIn?: string;
  readonly tokenOut?: string;
  readonly ticksCrossed: number;
  /** As the quote counted them (Leg.coldSlots); checked against the chain's storage diff when recorded. */
  readonly coldSlots: number;
  /** The swap moved the pool's tick (Leg.movesTick: a v3 oracle write). */
  readonly movesTick: boolean;
}

/**
 * One executed step: an approval, a swap transaction to an executor carrying these routes (legs in order; a WETH9
 * executor's wrap or unwrap has none), or a wrap's hand-over of its result to another recipient.
 */
export type DevnetGasStep =
  | { readonly step: 'approve'; readonly gasUsed: string }
  /** `Permit2.approve(token, router, amount, expiration)` before a Universal Router swap (approvalMode "approve"). */
  | { readonly step: 'permit2Approve'; readonly gasUsed: string }
  | { readonly step: 'send'; readonly native: boolean; readonly gasUsed: string }
  | {
      readonly step: 'swap';
      readonly executor: string;
      readonly routes: readonly (readonly DevnetGasLeg[])[];
      /** The swap carries a signed PermitSingle (the Universal Router's PERMIT2_PERMIT; approvalMode "permit2"). */
      readonly permit?: boolean;
      readonly gasUsed: string;
    };

/** One executed trade of the devnet test. */
export interface DevnetGasCase {
  readonly case: string;
  /** The pools' state: never traded (a fresh devnet) or traded before (test/helpers/warmPools.ts). */
  readonly pools: 'cold' | 'warm';
  readonly tradeType: 'exactIn' | 'exactOut';
  readonly nativeIn: boolean;
  readonly nativeOut: boolean;
  readonly steps: readonly DevnetGasStep[];
}

/** Where a fixture's numbers come from. */
export interface GasProvenance {
  readonly recordedBy: string;
  readonly recordedAt: string;
  readonly commit: string;
  readonly anvil: string;
  readonly conditions: string;
}

/** The fixture: where the numbers come from, then the cases. */
export interface DevnetGasFixture {
  readonly provenance: GasProvenance;
  readonly cases: readonly DevnetGasCase[];
}

/** One Across deposit the cross-chain devnet test executed: ERC-20 or native input, and its gasUsed. */
export interface AcrossGasCase {
  readonly case: string;
  readonly native: boolean;
  readonly gasUsed: string;
}

/** test/fixtures/gas/devnetAcrossGasUsed.json: the deposits of test/bridge/crossChain.devnet.test.ts. */
export interface AcrossGasFixture {
  readonly provenance: GasProvenance;
  readonly cases: readonly AcrossGasCase[];
}

const ACROSS_FIXTURE = fileURLToPath(new URL('../fixtures/gas/devnetAcrossGasUsed.json', import.meta.url));

/** Reads test/fixtures/gas/devnetGasUsed.json. */
export function readDevnetGasFixture(): DevnetGasFixture {
  return readTradeGasFixture('trades');
}

/** Reads test/fixtures/gas/devnetAcrossGasUsed.json. */
export function readAcrossGasFixture(): AcrossGasFixture {
  return JSON.parse(readFileSync(ACROSS_FIXTURE, 'utf8')) as AcrossGasFixture;
}

/** The provenance of a recording made now by `recordedBy`: the commit checked out and the anvil that ran it. */
function provenance(recordedBy: string, conditions: string): GasProvenance {
  if (process.env.CI === 'true')
    throw new Error(`recording gas fixtures is refused under CI=true (${recordedBy}): record locally and commit`);
  const run = (file: string, args: string[]): string => {
    try {
      return execFileSync(file, args, { encoding: 'utf8' }).trim();
    } catch {
      return 'unknown';
    }
  };
  return {
    recordedBy,
    recordedAt: new Date().toISOString(),
    commit: run('git', ['rev-parse', 'HEAD']),
    anvil: run(anvilBinary(), ['--version']).split('\n')[0],
    conditions,
  };
}

/** Reads one of the recorded trade fixtures (TRADE_GAS_FIXTURES). */
export function readTradeGasFixture(name: TradeGasFixture): DevnetGasFixture {
  return JSON.parse(readFileSync(fixturePath(TRADE_GAS_FIXTURES[name]), 'utf8')) as DevnetGasFixture;
}

/** Writes one of the recorded trade fixtures with its provenance: recorded by `test` (a devnet test file) under `conditions`. */
export function writeTradeGasFixture(name: TradeGasFixture, test: string, conditions: string, cases: readonly DevnetGasCase[]): void {
  const fixture: DevnetGasFixture = { provenance: provenance(`RECORD_GAS_FIXTURE=1 npx tap ${test}`, conditions), cases };
  writeFileSync(fixturePath(TRADE_GAS_FIXTURES[name]), `${JSON.stringify(fixture, null, 1)}\n`);
}

/** Writes test/fixtures/gas/devnetGasUsed.json with its provenance. */
export function writeDevnetGasFixture(cases: readonly DevnetGasCase[]): void {
  writeTradeGasFixture(
    'trades',
    'test/tx/buildTradeSteps.devnet.test.ts',
    'receipts of the trades buildTradeSteps.devnet executes on a fresh devnet, first on its never-traded pools (pools: cold), then after every pool was traded (pools: warm, test/helpers/warmPools.ts), each step sent with its own gasLimit; gasUsed per step as the receipt reports it',
    cases,
  );
}

/**
 * Each step of an executed trade with the part of the trade it executes, and the gas the chain used for it: the
 * token's approval, Permit2's approval of the Universal Router, a wrap's hand-over, or a swap transaction with its
 * routes' legs (tokens by symbol on `chain`) and whether it carries a signed permit (`permit`).
 */
export function tradeGasCase(
  name: string,
  pools: 'cold' | 'warm',
  chain: CatalogChain,
  trade: Trade,
  steps: readonly Step[],
  receipts: readonly TransactionReceipt[],
  permit = false,
): DevnetGasCase {
  const nativeIn = trade.tokenIn === NATIVE_TOKEN_ADDRESS.toLowerCase();
  const nativeOut = trade.tokenOut === NATIVE_TOKEN_ADDRESS.toLowerCase();
  const routesOf = new Map<string, Route[]>();
  for (const { route } of trade.splits) routesOf.set(route.executor.address, [...(routesOf.get(route.executor.address) ?? []), route]);
  const symbol = (token: string): string =>
    token === POOL_NATIVE ? FIXTURE_NATIVE : chain.tokens.find((x) => x.address.toLowerCase() === token.toLowerCase())!.symbol;
  const legs = (r: Route) =>
    r.legs.map((l) => ({
      kind: l.kind,
      tokenIn: symbol(l.tokenIn),
      tokenOut: symbol(l.tokenOut),
      ticksCrossed: l.ticksCrossed,
      coldSlots: l.coldSlots,
      movesTick: l.movesTick,
    }));
  const executors = new Set(trade.splits.map((x) => getAddress(x.route.executor.address)));
  return {
    case: name,
    pools,
    tradeType: trade.tradeType,
    nativeIn,
    nativeOut,
    steps: steps.map((s, i): DevnetGasStep => {
      const gasUsed = receipts[i].gasUsed.toString();
      if (s.spender) return { step: 'approve', gasUsed };
      // A wrap's hand-over of its result to another recipient: a native transfer or the wrapped token's transfer().
      if (s.message.startsWith('Send ')) return { step: 'send', native: s.data === '0x' || s.data === undefined, gasUsed };
      // A bare wrap or unwrap: a trade without pools, executed by the wrapped native token itself.
      if (trade.splits.length === 0) return { step: 'swap', executor: 'WETH9', routes: [], gasUsed };
      if (!executors.has(getAddress(s.to))) {
        if (s.message.startsWith('Allow ')) return { step: 'permit2Approve', gasUsed };
        throw new Error(`step ${i + 1} (${s.message}) goes to no executor of the trade`);
      }
      const executor = trade.splits.find((x) => getAddress(x.route.executor.address) === getAddress(s.to))!.route.executor;
      const all = routesOf.get(executor.address)!;
      const txs = steps.filter((x) => !x.spender && getAddress(x.to) === getAddress(s.to));
      // One transaction per route (UniswapV2Router02), or one for all of the router's routes.
      const routes = txs.length === 1 ? all : [all[txs.indexOf(s)]];
      return { step: 'swap', executor: executor.kind, routes: routes.map(legs), ...(permit ? { permit } : {}), gasUsed };
    }),
  };
}

/** Writes test/fixtures/gas/devnetAcrossGasUsed.json with its provenance. */
export function writeAcrossGasFixture(cases: readonly AcrossGasCase[]): void {
  const fixture: AcrossGasFixture = {
    provenance: provenance(
      'RECORD_GAS_FIXTURE=1 npx tap test/bridge/crossChain.devnet.test.ts',
      "receipts of the depositNow steps the cross-chain devnet test sends to the origin devnet's Across SpokePool (each the wallet's first deposit), with the gasLimit the quote gave them, every case on never-traded pools then on traded ones (test/helpers/warmPools.ts)",
    ),
    cases,
  };
  writeFileSync(ACROSS_FIXTURE, `${JSON.stringify(fixture, null, 1)}\n`);
}

/** Kinds of single-purpose steps whose gasUsed the fixture records. */
export type MeasuredStep = 'approve' | 'wrap' | 'unwrap' | 'sendNative' | 'sendErc20' | 'acrossDepositErc20' | 'acrossDepositNative';

/** Every recorded gasUsed of one kind of step. */
export function measuredGasUsed(kind: MeasuredStep): bigint[] {
  if (kind === 'acrossDepositErc20' || kind === 'acrossDepositNative') {
    const native = kind === 'acrossDepositNative';
    return readAcrossGasFixture()
      .cases.filter((c) => c.native === native)
      .map((c) => BigInt(c.gasUsed));
  }
  const out: bigint[] = [];
  for (const c of readDevnetGasFixture().cases) {
    for (const s of c.steps) {
      const k =
        s.step === 'approve'
          ? 'approve'
          : s.step === 'send'
            ? s.native
              ? 'sendNative'
              : 'sendErc20'
            : s.step === 'swap' && s.executor === 'WETH9'
              ? c.nativeIn
                ? 'wrap'
                : 'unwrap'
              : undefined;
      if (k === kind) out.push(BigInt(s.gasUsed));
    }
  }
  return out;
}
