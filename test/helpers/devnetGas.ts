import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { anvilBinary } from '../../seeds/devnet/startAnvil.ts';

// Test support (not a test): the gas the devnet used for executed trades, recorded by
// test/tx/buildTradeSteps.devnet.test.ts (RECORD_GAS_FIXTURE=1) into test/fixtures/gas/devnetGasUsed.json, so that
// unit tests can hold the gas model to the chain's measurements without starting anvil.

const FIXTURE = fileURLToPath(new URL('../fixtures/gas/devnetGasUsed.json', import.meta.url));

/** One leg of a recorded route: its protocol, the initialized ticks it crossed, the pool slots it wrote from zero. */
export interface DevnetGasLeg {
  readonly kind: string;
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
  | { readonly step: 'send'; readonly native: boolean; readonly gasUsed: string }
  | { readonly step: 'swap'; readonly executor: string; readonly routes: readonly (readonly DevnetGasLeg[])[]; readonly gasUsed: string };

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
  return JSON.parse(readFileSync(FIXTURE, 'utf8')) as DevnetGasFixture;
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

/** Writes test/fixtures/gas/devnetGasUsed.json with its provenance. */
export function writeDevnetGasFixture(cases: readonly DevnetGasCase[]): void {
  const fixture: DevnetGasFixture = {
    provenance: provenance(
      'RECORD_GAS_FIXTURE=1 npx tap test/tx/buildTradeSteps.devnet.test.ts',
      'receipts of the trades buildTradeSteps.devnet executes on a fresh devnet, first on its never-traded pools (pools: cold), then after every pool was traded (pools: warm, test/helpers/warmPools.ts), each step sent with its own gasLimit; gasUsed per step as the receipt reports it',
    ),
    cases,
  };
  writeFileSync(FIXTURE, `${JSON.stringify(fixture, null, 1)}\n`);
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
            : s.executor === 'WETH9'
              ? c.nativeIn
                ? 'wrap'
                : 'unwrap'
              : undefined;
      if (k === kind) out.push(BigInt(s.gasUsed));
    }
  }
  return out;
}
