import { join } from 'node:path';
import t from 'tap';
import { getAddress, keccak256, toHex } from 'viem';
import { compileSolidity } from '../../seeds/devnet/compileSolidity.ts';
import {
  APPROVAL_PROBE_OWNER,
  APPROVAL_PROBE_SPENDER,
  APPROVAL_RESET_PROBE_CODE,
  approvalResetProbeAbi,
} from '../../src/chain/approvalResetProbe.ts';
import { approvalResetResult } from '../../src/chain/probeApprovalResets.ts';

const ROOT = join(import.meta.dirname, '..', '..');

t.test('the shipped approval-reset probe code is what its source compiles to', async (t) => {
  const compiled = compileSolidity(join(ROOT, 'src/chain/ApprovalResetProbe.sol'), 'ApprovalResetProbe');
  t.equal(APPROVAL_RESET_PROBE_CODE, compiled.deployedBytecode);
  const names = (abi: readonly { type: string; name?: string }[]) =>
    abi
      .filter((x) => x.type === 'function')
      .map((x) => x.name)
      .sort();
  t.same(names(approvalResetProbeAbi), names(compiled.abi as unknown as { type: string; name?: string }[]));
  t.equal(APPROVAL_PROBE_OWNER, getAddress(`0x${keccak256(toHex('approval reset probe owner')).slice(26)}`));
  t.equal(APPROVAL_PROBE_SPENDER, getAddress(`0x${keccak256(toHex('approval reset probe spender')).slice(26)}`));
});

t.test('approvalResetResult: each outcome of the three approvals', async (t) => {
  t.same(approvalResetResult({ first: true, second: true, afterReset: false }), { kind: 'none' }, 'a second approval over 1 works');
  t.same(approvalResetResult({ first: true, second: false, afterReset: true }), {
    kind: 'reset',
    detail: 'approve reverts (or returns false) while the allowance is not zero: its approvals reset the allowance to 0 first',
  });
  t.same(approvalResetResult({ first: true, second: false, afterReset: false }), {
    kind: 'failed',
    detail: 'approve over a non-zero allowance reverted or returned false, and a reset to 0 did not help',
  });
  t.same(approvalResetResult({ first: false, second: false, afterReset: false }), {
    kind: 'failed',
    detail: 'approve from a zero allowance reverted or returned false',
  });
  t.same(approvalResetResult(undefined), { kind: 'failed', detail: 'its approve could not be simulated' });
});
