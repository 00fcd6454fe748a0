import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { anvilBinary } from '../../seeds/devnet/startAnvil.ts';

// Test support (not a test): the gas the devnet used for executed trades, recorded by
// test/tx/buildTradeSteps.devnet.test.ts (RECORD_GAS_FIXTURE=1) into test/fixtures/gas/devnetGasUsed.json, so that
// unit tests can hold the gas model to the chain's measurements without starting anvil.

const FIXTURE = fileURLToPath(new URL('../fixtures/gas/devnetGasUsed.json', import.meta.url));

/** One leg of a recorded route: its protocol and the initialized ticks it crossed. */
export interface DevnetGasLeg {
  readonly kind: string;
  readonly ticksCrossed: number;
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
  readonly tradeType: 'exactIn' | 'exactOut';
  readonly nativeIn: boolean;
  readonly nativeOut: boolean;
  readonly steps: readonly DevnetGasStep[];
}

/** The fixture: where the numbers come from, then the cases. */
export interface DevnetGasFixture {
  readonly provenance: {
    readonly recordedBy: string;
    readonly recordedAt: string;
    readonly commit: string;
    readonly anvil: string;
    readonly conditions: string;
  };
  readonly cases: readonly DevnetGasCase[];
}

/** Reads test/fixtures/gas/devnetGasUsed.json. */
export function readDevnetGasFixture(): DevnetGasFixture {
  return JSON.parse(readFileSync(FIXTURE, 'utf8')) as DevnetGasFixture;
}

/** Writes the fixture with its provenance (the commit checked out and the anvil that ran the cases). */
export function writeDevnetGasFixture(cases: readonly DevnetGasCase[]): void {
  const run = (file: string, args: string[]): string => {
    try {
      return execFileSync(file, args, { encoding: 'utf8' }).trim();
    } catch {
      return 'unknown';
    }
  };
  const fixture: DevnetGasFixture = {
    provenance: {
      recordedBy: 'RECORD_GAS_FIXTURE=1 npx tap test/tx/buildTradeSteps.devnet.test.ts',
      recordedAt: new Date().toISOString(),
      commit: run('git', ['rev-parse', 'HEAD']),
      anvil: run(anvilBinary(), ['--version']).split('\n')[0],
      conditions:
        'receipts of the trades buildTradeSteps.devnet executes on a fresh devnet whose pools were all traded before (test/helpers/warmPools.ts), each step sent with its own gasLimit; gasUsed per step as the receipt reports it',
    },
    cases,
  };
  writeFileSync(FIXTURE, `${JSON.stringify(fixture, null, 1)}\n`);
}

/** Kinds of single-purpose steps whose gasUsed the fixture records. */
export type MeasuredStep = 'approve' | 'wrap' | 'unwrap' | 'sendNative' | 'sendErc20';

/** Every recorded gasUsed of one kind of step. */
export function measuredGasUsed(kind: MeasuredStep): bigint[] {
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
