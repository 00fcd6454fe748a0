import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';

// The loader (src/loader/hooks.js) serves viem's entry points `viem`, `viem/accounts` and `viem/chains` from an esbuild
// bundle. The oracle is viem loaded from its own files (TS_LOADER_BUNDLE=off): the same exports, of the same types,
// and one copy of viem's internals behind all three entries (what viem/accounts re-exports from viem is the same object);
// its WebSocket transport answers (the CommonJS ws stays outside the bundle).
const LOADER = new URL('../../src/loader/register.js', import.meta.url).href;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const script = `
import { WebSocketServer } from 'ws';
import * as viem from 'viem';
import * as accounts from 'viem/accounts';
import * as chains from 'viem/chains';
const shape = (m) => Object.keys(m).sort().map((k) => k + ':' + typeof m[k]);
let thrownAt;
try {
  viem.parseUnits('not a number', 18);
} catch (e) {
  thrownAt = e.stack.split('\\n').find((line) => line.includes(' at '));
}
const shared = Object.keys(accounts).filter((k) => k in viem);
// viem's WebSocket transport loads the CommonJS package ws (through isows) only when used.
const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
await new Promise((resolve) => server.on('listening', resolve));
server.on('connection', (socket) =>
  socket.on('message', (m) => socket.send(JSON.stringify({ jsonrpc: '2.0', id: JSON.parse(String(m)).id, result: '0x7a69' }))),
);
const client = viem.createPublicClient({ transport: viem.webSocket('ws://127.0.0.1:' + server.address().port) });
const overWebSocket = await client.getChainId();
console.log(JSON.stringify({
  thrownAt,
  shared: shared.map((k) => [k, accounts[k] === viem[k]]),
  viem: shape(viem),
  accounts: shape(accounts),
  chains: shape(chains),
  units: String(viem.parseUnits('1.5', 6)),
  mainnet: chains.mainnet.id,
  overWebSocket,
}));
process.exit(0);
`;

interface Loaded {
  thrownAt: string;
  shared: [string, boolean][];
  viem: string[];
  accounts: string[];
  chains: string[];
  units: string;
  mainnet: number;
  overWebSocket: number;
}

function load(t: Test, bundle: 'on' | 'off'): Loaded {
  const run = spawnSync(process.execPath, ['--import', LOADER, '--input-type=module', '-e', script], {
    cwd: ROOT,
    env: { ...process.env, TS_LOADER_BUNDLE: bundle },
    encoding: 'utf8',
  });
  t.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as Loaded;
}

t.test('viem from the bundle: the exports of its own files, one copy of its internals', async (t) => {
  const bundled = load(t, 'on');
  const files = load(t, 'off');
  t.match(bundled.thrownAt, /\/\.data\/ts-cache\/bundle-[0-9a-f]+\/chunk-[A-Za-z0-9]+\.mjs:/, 'viem code runs from the bundle');
  t.match(files.thrownAt, /\/node_modules\/viem\//, 'TS_LOADER_BUNDLE=off: from viem own files');
  t.strictSame(bundled.viem, files.viem, "viem's exports and their types");
  t.strictSame(bundled.accounts, files.accounts, "viem/accounts' exports");
  t.strictSame(bundled.chains, files.chains, "viem/chains' exports");
  t.ok(bundled.viem.length > 400 && bundled.chains.length > 700, `${bundled.viem.length} / ${bundled.chains.length} exports`);
  t.strictSame(
    bundled.shared,
    files.shared.map(([k]) => [k, true]),
    'what viem/accounts shares with viem is the same object',
  );
  t.ok(files.shared.length >= 4, files.shared.map(([k]) => k).join(' '));
  t.strictSame([bundled.units, bundled.mainnet, bundled.overWebSocket], ['1500000', 1, 31337]);
  t.strictSame([files.units, files.mainnet, files.overWebSocket], ['1500000', 1, 31337]);
});
