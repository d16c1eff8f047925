// What the code can do, from the function selectors in its dispatcher (extracted with evmole)
// matched against signatures known to give an owner or a role power over holders.
import { contractInfo } from 'evmole';
import { toFunctionSelector } from 'viem';
import type { Hex } from 'viem';

export type CapabilityId = 'mint' | 'pause' | 'blacklist' | 'fees' | 'limits' | 'trading' | 'ownership' | 'upgrade';

export const KNOWN_SIGNATURES: Readonly<Record<CapabilityId, readonly string[]>> = {
  mint: ['mint(address,uint256)', 'mint(uint256)', 'mintTo(address,uint256)', 'configureMinter(address,uint256)'],
  pause: ['pause()', 'unpause()', 'setPaused(bool)'],
  blacklist: ['blacklist(address)', 'unBlacklist(address)', 'unblacklist(address)', 'addToBlacklist(address)', 'removeFromBlacklist(address)', 'setBlacklist(address,bool)', 'blacklistAddress(address,bool)', 'setBots(address[])'],
  fees: ['setFee(uint256)', 'setFees(uint256,uint256)', 'setTaxFee(uint256)', 'setTax(uint256)', 'setTaxes(uint256,uint256)', 'setBuyFee(uint256)', 'setSellFee(uint256)', 'setBuyTax(uint256)', 'setSellTax(uint256)', 'updateFees(uint256,uint256)'],
  limits: ['setMaxTxAmount(uint256)', 'setMaxTxPercent(uint256)', 'setMaxWalletSize(uint256)', 'setMaxWallet(uint256)', 'setMaxWalletAmount(uint256)', 'removeLimits()'],
  trading: ['enableTrading()', 'openTrading()', 'setTradingEnabled(bool)', 'setTrading(bool)'],
  ownership: ['owner()', 'transferOwnership(address)', 'renounceOwnership()'],
  upgrade: ['upgradeTo(address)', 'upgradeToAndCall(address,bytes)', 'changeAdmin(address)'],
};

const bySelector = new Map<string, { capability: CapabilityId; signature: string }>(
  (Object.entries(KNOWN_SIGNATURES) as [CapabilityId, readonly string[]][]).flatMap(([capability, signatures]) =>
    signatures.map((signature) => [toFunctionSelector(`function ${signature}`).slice(2), { capability, signature }] as const),
  ),
);

export function selectorsOf(code: Hex): string[] {
  return contractInfo(code, { selectors: true }).functions?.map((f) => f.selector) ?? [];
}

export interface Capability {
  id: CapabilityId;
  functions: { selector: string; signature: string }[];
}

export function capabilitiesOf(selectors: readonly string[]): Capability[] {
  const found = new Map<CapabilityId, Capability>();
  for (const selector of selectors) {
    const known = bySelector.get(selector.toLowerCase());
    if (!known) continue;
    const capability = found.get(known.capability) ?? { id: known.capability, functions: [] };
    capability.functions.push({ selector: `0x${selector}`, signature: known.signature });
    found.set(known.capability, capability);
  }
  return [...found.values()];
}
