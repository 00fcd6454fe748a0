import { balancerV2 } from './balancer/balancerV2.ts';
import type { PoolProtocol, ProtocolGas } from './PoolProtocol.ts';
import type { PoolSource } from './PoolSource.ts';
import { uniswapV2 } from './uniswapV2/uniswapV2.ts';
import { uniswapV3 } from './uniswapV3/uniswapV3.ts';
import { uniswapV4 } from './uniswapV4/uniswapV4.ts';

/*
 * The only place that knows which pool protocols exist: one row per protocol (its folder beside this file), and the
 * snapshot files' `version` of each. Everything else asks protocolOf / snapshotProtocol for the row and calls it.
 * Adding a protocol: its folder, its row in PROTOCOLS, its version in KIND_OF_VERSION.
 */

/** Every pool protocol the service prices. */
const PROTOCOLS = [uniswapV2, uniswapV3, uniswapV4, balancerV2] as const;

type Row = (typeof PROTOCOLS)[number];
type PoolOf<R> = R extends PoolProtocol<infer P, infer _S> ? P : never;
type StateOf<R> = R extends PoolProtocol<infer _P, infer S> ? S : never;

/** The kind of a pool protocol: its row in the registry (Balancer v2's row prices two kinds, PoolProtocol.kinds). */
export type ProtocolKind = PoolOf<Row>['kind'];

/** Any priceable pool. */
export type Pool = PoolOf<Row>;

/** Any pool's state as a snapshot file holds it; its `version` names its protocol (KIND_OF_VERSION). */
export type SnapshotPool = StateOf<Row>;

/** A snapshot pool's `version`: v2, v3, v4 or balancerV2 (seeds/snapshot.schema.json). */
export type SnapshotVersion = SnapshotPool['version'];

/** A row of the registry, for any pool and state of its kind. */
export type AnyPoolProtocol = PoolProtocol<Pool, SnapshotPool>;

/** The protocol of each snapshot `version` (the snapshot files' discriminant, unchanged in the file format). */
const KIND_OF_VERSION: { readonly [V in SnapshotVersion]: ProtocolKind } = {
  v2: 'uniswapV2',
  v3: 'uniswapV3',
  v4: 'uniswapV4',
  balancerV2: 'balancerWeighted',
};

const BY_KIND: ReadonlyMap<string, AnyPoolProtocol> = new Map(
  PROTOCOLS.flatMap((p): [string, AnyPoolProtocol][] =>
    ((p as { kinds?: readonly string[] }).kinds ?? [p.kind]).map((kind): [string, AnyPoolProtocol] => [kind, p as AnyPoolProtocol]),
  ),
);

const BY_VERSION: ReadonlyMap<string, AnyPoolProtocol> = new Map(
  Object.entries(KIND_OF_VERSION).map(([version, kind]): [string, AnyPoolProtocol] => [version, protocolOf(kind)]),
);

/** A pool kind or snapshot version the registry has no row for. */
export class UnknownProtocolError extends Error {
  override readonly name = 'UnknownProtocolError';
}

/** The protocol of a pool kind (`pool.kind`, `leg.kind`); throws UnknownProtocolError for a kind not in the table. */
export function protocolOf(kind: string): AnyPoolProtocol {
  const protocol = BY_KIND.get(kind);
  if (!protocol) throw new UnknownProtocolError(`unknown pool protocol '${kind}' (no row in src/protocols/registry.ts)`);
  return protocol;
}

/**
 * Gas figures of a swap through a pool of this kind (its row's `gas`, or the kind's own where the row prices several
 * kinds, PoolProtocol.kindGas); throws UnknownProtocolError for a kind not in the table.
 */
export function protocolGas(kind: string): ProtocolGas {
  const protocol = protocolOf(kind);
  return (protocol.kindGas as Readonly<Record<string, ProtocolGas | undefined>> | undefined)?.[kind] ?? protocol.gas;
}

/** ProtocolGas with each figure a number (integers far below 2^53): what routeGas sums per leg of every priced route. */
export type ProtocolGasUnits = { readonly [K in keyof ProtocolGas]: number };

const GAS_UNITS = new Map<string, ProtocolGasUnits>();

/** protocolGas(kind)'s figures as numbers, converted once per kind. */
export function protocolGasUnits(kind: string): ProtocolGasUnits {
  let units = GAS_UNITS.get(kind);
  if (units === undefined) {
    const g = protocolGas(kind);
    units = {
      hop: Number(g.hop),
      tick: Number(g.tick),
      exactOutNextHop: Number(g.exactOutNextHop),
      coldSlot: Number(g.coldSlot),
      tickMove: Number(g.tickMove),
    };
    GAS_UNITS.set(kind, units);
  }
  return units;
}

/** The protocol of a snapshot pool's `version`; throws UnknownProtocolError for a version not in the table. */
export function snapshotProtocol(version: string): AnyPoolProtocol {
  const protocol = BY_VERSION.get(version);
  if (!protocol) throw new UnknownProtocolError(`unknown snapshot pool version '${version}' (no row in src/protocols/registry.ts)`);
  return protocol;
}

/** Every snapshot version, in table order. */
const SNAPSHOT_VERSIONS: readonly SnapshotVersion[] = Object.keys(KIND_OF_VERSION) as SnapshotVersion[];

/**
 * How pools of a snapshot version are found and read on a chain (seeding, a follower's discovery and re-reads);
 * throws UnknownProtocolError for a version not in the table.
 */
export function poolSource(version: string): PoolSource<SnapshotPool> {
  return snapshotProtocol(version).source;
}

/** Every snapshot version's source. */
export const POOL_SOURCES: readonly PoolSource<SnapshotPool>[] = SNAPSHOT_VERSIONS.map(poolSource);

/** The kinds in the table (for tests and docs). */
export const PROTOCOL_KINDS: readonly ProtocolKind[] = PROTOCOLS.flatMap(
  (p) => ((p as { kinds?: readonly ProtocolKind[] }).kinds ?? [p.kind]) as ProtocolKind[],
);

/** Whether a snapshot pool of this `version` holds a tick list the fast loader may leave unparsed (PoolProtocol.tickListSnapshot). */
export function snapshotHasTickList(version: unknown): boolean {
  return typeof version === 'string' && BY_VERSION.get(version)?.tickListSnapshot === true;
}
