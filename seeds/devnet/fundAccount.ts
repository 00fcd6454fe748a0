import { type Address, encodeFunctionData, getAddress, type Hex, parseAbi, toHex } from 'viem';
import { devnetAddresses, NATIVE_TOKEN_ADDRESS } from './devnetAddresses.ts';
import { jsonRpc, receiptOf } from './jsonRpc.ts';

const abi = parseAbi([
  'function mint(address to, uint256 amount) returns (bool)',
  'function transfer(address to, uint256 amount) returns (bool)',
  'function deposit() payable',
]);

async function sendFromDeployer(rpcUrl: string, to: Address, data: Hex, value = 0n): Promise<void> {
  const from = devnetAddresses().deployer;
  const tx: Record<string, string> = { from, to, data, gas: toHex(1_000_000n) };
  if (value > 0n) tx.value = toHex(value);
  const hash = await jsonRpc<Hex>(rpcUrl, 'eth_sendTransaction', [tx]);
  const receipt = await receiptOf<{ status: Hex }>(rpcUrl, hash);
  if (receipt.status !== '0x1') throw new Error(`fundAccount: transaction ${hash} failed`);
}

/**
 * Gives `to` `amount` smallest units of a devnet token: native ETH (0xEeee…) via anvil_setBalance (adds to the balance),
 * WETH by the deployer wrapping ether and transferring it, any other devnet token by MintableERC20.mint.
 */
export async function fundAccount(rpcUrl: string, to: Address, token: Address, amount: bigint): Promise<void> {
  const { tokens, deployer } = devnetAddresses();
  const tokenAddress = getAddress(token);
  if (tokenAddress === getAddress(NATIVE_TOKEN_ADDRESS)) {
    const balance = BigInt(await jsonRpc<Hex>(rpcUrl, 'eth_getBalance', [to, 'latest']));
    await jsonRpc(rpcUrl, 'anvil_setBalance', [to, toHex(balance + amount)]);
    return;
  }
  if (tokenAddress === tokens.WETH) {
    const balance = BigInt(await jsonRpc<Hex>(rpcUrl, 'eth_getBalance', [deployer, 'latest']));
    await jsonRpc(rpcUrl, 'anvil_setBalance', [deployer, toHex(balance + amount + 10n ** 18n)]);
    await sendFromDeployer(rpcUrl, tokens.WETH, encodeFunctionData({ abi, functionName: 'deposit' }), amount);
    await sendFromDeployer(rpcUrl, tokens.WETH, encodeFunctionData({ abi, functionName: 'transfer', args: [to, amount] }));
    return;
  }
  if (!Object.values(tokens).includes(tokenAddress)) throw new Error(`fundAccount: ${tokenAddress} is not a devnet token`);
  await sendFromDeployer(rpcUrl, tokenAddress, encodeFunctionData({ abi, functionName: 'mint', args: [to, amount] }));
}
