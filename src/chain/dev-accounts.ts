// The roles of anvil's well-known development accounts in local mode. These keys are public
// knowledge: they hold value only on a local chain.
import { toHex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import type { Hex } from 'viem';

export const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';

/** Account #0 is left unused: on Hardhat-like chains it is the default eth_call sender, and a proxy admin there breaks every read. */
export const devAccountIndex = {
  proxyAdmin: 1,
  tokenOwner: 2,
  settler: 3,
  payTo: 4,
  demoPayer: 5,
  /** Sends payment channels' deposits, claims, settles and refunds (its own nonces). */
  channelSettler: 6,
  // #7 is the reference facilitator's in the tests (test/support/reference-facilitator.ts).
  /** Signs channel claims and cooperative refunds; needs no ETH. */
  receiverAuthorizer: 8,
} as const;

export type DevRole = keyof typeof devAccountIndex;

export function devPrivateKey(role: DevRole): Hex {
  const key = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: devAccountIndex[role] }).getHdKey().privateKey;
  if (!key) throw new Error(`no private key for dev account ${role}`);
  return toHex(key);
}
