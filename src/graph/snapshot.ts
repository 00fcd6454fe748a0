import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import { projectRoot } from '../config.ts';

/** Fields common to v2 and v3 pools in a snapshot file (seeds/snapshot.schema.json). Integers as decimal strings. */
interface SnapshotPoolBase {
  readonly address: string;
  readonly dex: string;
  readonly token0: string;
  readonly token1: string;
  /** Fee in pips (hundredths of a bip). */
  readonly fee: number;
  readonly balance0: string;
  readonly balance1: string;
}

export interface SnapshotPoolV2 extends SnapshotPoolBase {
  readonly version: 'v2';
  readonly reserve0: string;
  readonly reserve1: string;
}

export interface SnapshotPoolV3 extends SnapshotPoolBase {
  readonly version: 'v3';
  readonly sqrtPriceX96: string;
  readonly tick: number;
  readonly liquidity: string;
  readonly tickSpacing: number;
  readonly bitmapWords: readonly [number, number];
  readonly ticks: ReadonlyArray<readonly [number, string]>;
}

export type SnapshotPool = SnapshotPoolV2 | SnapshotPoolV3;

/** One chain's pool state at one block, as written by the seeding run. */
export interface Snapshot {
  readonly formatVersion: 1;
  readonly chainId: number;
  readonly blockNumber: number;
  readonly blockTimestamp: number;
  readonly seededAt: string;
  readonly tickWindowWords: number;
  readonly pools: readonly SnapshotPool[];
}

/** The outcome of reading a snapshot folder: the valid snapshots and a message per refused file. */
export interface SnapshotLoad {
  readonly snapshots: Snapshot[];
  readonly errors: string[];
}

let validator: ((data: unknown) => boolean) & { errors?: ErrorObject[] | null } | undefined;

function validateSnapshot(data: unknown): string | undefined {
  if (!validator) {
    const schema = JSON.parse(readFileSync(join(projectRoot, 'seeds', 'snapshot.schema.json'), 'utf8')) as object;
    validator = new Ajv({ allErrors: false, strict: false }).compile(schema);
  }
  if (validator(data)) return undefined;
  const e = validator.errors?.[0];
  return e ? `${e.instancePath || '(root)'}: ${e.message ?? 'is invalid'}` : 'is invalid';
}

/** Parses and validates one snapshot file's text; returns the snapshot or a message saying why it is refused. */
export function parseSnapshot(text: string): Snapshot | string {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return `not valid JSON (${(error as Error).message})`;
  }
  const problem = validateSnapshot(data);
  if (problem) return problem;
  const snapshot = data as Snapshot;
  for (const [i, pool] of snapshot.pools.entries()) {
    if (pool.token0.toLowerCase() >= pool.token1.toLowerCase()) return `/pools/${i}: token0 must sort below token1`;
    if (pool.version === 'v3') {
      for (let k = 1; k < pool.ticks.length; k++) {
        if (pool.ticks[k][0] <= pool.ticks[k - 1][0]) return `/pools/${i}/ticks: must be strictly ascending`;
      }
    }
  }
  return snapshot;
}

/** Reads every `*.json` snapshot in a folder; invalid files are refused (listed in `errors`), never half-used. */
export function loadSnapshots(dir: string): SnapshotLoad {
  const snapshots: Snapshot[] = [];
  const errors: string[] = [];
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  } catch (error) {
    return { snapshots, errors: [`${dir}: cannot read snapshot folder (${(error as NodeJS.ErrnoException).code ?? 'error'})`] };
  }
  const seen = new Map<number, string>();
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(join(dir, file), 'utf8');
    } catch (error) {
      errors.push(`${file}: cannot read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
      continue;
    }
    const result = parseSnapshot(text);
    if (typeof result === 'string') {
      errors.push(`${file}: ${result}`);
      continue;
    }
    const other = seen.get(result.chainId);
    if (other) {
      errors.push(`${file}: chain ${result.chainId} already has snapshot ${other}`);
      continue;
    }
    seen.set(result.chainId, file);
    snapshots.push(result);
  }
  return { snapshots, errors };
}
