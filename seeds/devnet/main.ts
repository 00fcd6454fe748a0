/**
 * `npm run devnet [-- --port 8545 --chain-id 31337]`: starts anvil, deploys the devnet, prints it, runs until Ctrl-C.
 * Environment: DEVNET_PORT, DEVNET_CHAIN_ID (flags win), ANVIL_BIN (anvil binary override).
 */
import { parseArgs } from 'node:util';
import { DEVNET_TOKENS } from './devnetPlan.ts';
import { startDevnet } from './startDevnet.ts';

const { values } = parseArgs({
  options: { port: { type: 'string' }, 'chain-id': { type: 'string' } },
  allowPositionals: false,
});
const portText = values.port ?? process.env.DEVNET_PORT ?? '8545';
const chainText = values['chain-id'] ?? process.env.DEVNET_CHAIN_ID ?? '31337';
const port = Number(portText);
const chainId = Number(chainText);
if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`invalid port: ${portText}`);
if (!Number.isSafeInteger(chainId) || chainId <= 0) throw new Error(`invalid chain id: ${chainText}`);

let devnet: Awaited<ReturnType<typeof startDevnet>>;
try {
  devnet = await startDevnet({ port, chainId, across: true, v4: true, balancer: true });
} catch (err) {
  console.error(`devnet: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
const { addresses } = devnet;
const lines: string[] = [];
lines.push(
  `devnet up: ${devnet.rpcUrl}  chain id ${devnet.chainId}  anvil pid ${devnet.pid}  (${devnet.txCount} txs, ${devnet.startMs} ms)`,
);
lines.push('', 'tokens:');
for (const t of DEVNET_TOKENS) lines.push(`  ${t.symbol.padEnd(6)} ${addresses.tokens[t.symbol]}  (${t.decimals} decimals)`);
lines.push('', 'contracts:');
for (const [name, address] of Object.entries(addresses.contracts)) {
  if (!(name in addresses.tokens)) lines.push(`  ${name.padEnd(36)} ${address}`);
}
lines.push(`  ${'multicall3'.padEnd(36)} ${addresses.multicall3}`);
if (devnet.across) lines.push(`  ${'acrossSpokePool (proxy)'.padEnd(36)} ${devnet.across.spokePool}`);
if (devnet.v4) {
  lines.push(`  ${'permit2'.padEnd(36)} ${devnet.v4.permit2}`);
  for (const [name, address] of Object.entries(devnet.v4.contracts)) lines.push(`  ${`v4 ${name}`.padEnd(36)} ${address}`);
}
if (devnet.balancer) {
  for (const [name, address] of Object.entries(devnet.balancer.contracts)) lines.push(`  ${`balancer ${name}`.padEnd(36)} ${address}`);
}
lines.push('', 'pools:');
const symbolOf = new Map(Object.entries(addresses.tokens).map(([s, a]) => [a, s]));
for (const p of addresses.pools) {
  lines.push(
    `  ${p.dex.padEnd(10)} ${p.version} ${`${symbolOf.get(p.token0)}/${symbolOf.get(p.token1)}`.padEnd(10)} fee ${String(p.fee).padStart(5)}  ${p.address}`,
  );
}
const symbolOrEth = (a: string): string => (BigInt(a) === 0n ? 'ETH' : (symbolOf.get(a as `0x${string}`) ?? a));
for (const p of devnet.v4?.pools ?? []) {
  lines.push(
    `  uniswap    v4 ${`${symbolOrEth(p.currency0)}/${symbolOrEth(p.currency1)}`.padEnd(10)} fee ${String(p.lpFee).padStart(5)}${p.fee === p.lpFee ? '' : ' (dynamic)'}  spacing ${p.tickSpacing}  ${p.poolId}${BigInt(p.hooks) === 0n ? '' : `  hooks ${p.hooks}`}`,
  );
}
for (const p of devnet.balancer?.pools ?? []) {
  lines.push(`  balancer   ${p.kind === 'weighted' ? 'weighted' : 'stable  '} ${p.name.padEnd(14)} ${p.address}  poolId ${p.poolId}`);
}
lines.push(
  '',
  `accounts (anvil default mnemonic; unlocked): ${devnet.accounts
    .slice(0, 3)
    .map((a) => a.address)
    .join(', ')}, ...`,
);
lines.push(`seed it:  RPC_URL_${devnet.chainId}=${devnet.rpcUrl} npm run seed -- --chain ${devnet.chainId}`);
lines.push('Ctrl-C to stop.');
console.log(lines.join('\n'));

let stopping = false;
const shutdown = (): void => {
  if (stopping) return;
  stopping = true;
  devnet.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
setInterval(() => {}, 1 << 30);
