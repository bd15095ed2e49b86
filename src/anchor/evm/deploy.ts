import { type Address, type Hex, createWalletClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ANCHOR_ABI, ANCHOR_BYTECODE } from './artifact';
import { connectChain, evmTransport } from './evm-adapter';

/**
 * Deploys contracts/CredgateAnchor.sol from the anchoring account (which becomes its only writer)
 * and returns its address, for CREDGATE_EVM_CONTRACT. Used by scripts/deploy-anchor-contract.js
 * and the tests.
 */
export async function deployAnchorContract(rpcUrl: string, privateKey: Hex): Promise<Address> {
  const { chain, publicClient } = await connectChain(rpcUrl);
  const wallet = createWalletClient({ account: privateKeyToAccount(privateKey), chain, transport: evmTransport(rpcUrl) });
  const hash = await wallet.deployContract({ abi: ANCHOR_ABI, bytecode: ANCHOR_BYTECODE });
  const mined = await publicClient.waitForTransactionReceipt({ hash });
  if (mined.status !== 'success' || !mined.contractAddress) throw new Error(`deploying the anchoring contract failed (transaction ${hash})`);
  return mined.contractAddress;
}
