import type { Test } from 'tap';
import { gasLimit } from '../../src/routing/gasModel.ts';
import { type MeasuredStep, measuredGasUsed } from './devnetGas.ts';

// Test support (not a test): a step's gasLimit held to the devnet's measurements of that kind of step.

/**
 * Asserts that `limit` covers the most gas the devnet used for a step of this kind, and comes from an estimate within
 * 5% of every measurement (the model's stated error): max(gasUsed) <= limit and
 * gasLimit(0.95 x max(gasUsed)) <= limit <= gasLimit(1.05 x min(gasUsed)).
 */
export function checkMeasuredLimit(t: Test, limit: string | undefined, kind: MeasuredStep, label: string = kind): void {
  const used = measuredGasUsed(kind);
  t.ok(used.length > 0, `${label}: the devnet fixture has ${kind} steps`);
  const most = used.reduce((m, x) => (x > m ? x : m), 0n);
  const least = used.reduce((m, x) => (x < m ? x : m), most);
  const value = BigInt(limit ?? -1);
  t.ok(
    value >= most && value >= gasLimit((most * 95n) / 100n) && value <= gasLimit((least * 105n) / 100n),
    `${label}: gasLimit ${limit} covers the devnet's ${least}..${most}, from an estimate within 5% of each`,
  );
}

/** The step without its gasLimit (checked apart, against the devnet). */
export function withoutGasLimit<S extends { gasLimit?: string }>(step: S): Omit<S, 'gasLimit'> {
  const { gasLimit: _, ...rest } = step;
  return rest;
}
