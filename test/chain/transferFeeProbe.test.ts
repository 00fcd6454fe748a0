import { join } from 'node:path';
import t from 'tap';
import { getAddress, keccak256, toHex } from 'viem';
import { compileSolidity } from '../../seeds/devnet/compileSolidity.ts';
import { PROBE_RECEIVER, TRANSFER_FEE_PROBE_CODE, transferFeeProbeAbi } from '../../src/chain/transferFeeProbe.ts';

const ROOT = join(import.meta.dirname, '..', '..');

t.test('the shipped transfer-fee probe code is what its source compiles to', async (t) => {
  const compiled = compileSolidity(join(ROOT, 'src/chain/TransferFeeProbe.sol'), 'TransferFeeProbe');
  t.equal(TRANSFER_FEE_PROBE_CODE, compiled.deployedBytecode);
  const names = (abi: readonly { type: string; name?: string }[]) =>
    abi
      .filter((x) => x.type === 'function')
      .map((x) => x.name)
      .sort();
  t.same(names(transferFeeProbeAbi), names(compiled.abi as unknown as { type: string; name?: string }[]));
  t.equal(PROBE_RECEIVER, getAddress(`0x${keccak256(toHex('transfer fee probe receiver')).slice(26)}`));
});
