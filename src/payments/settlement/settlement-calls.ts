// The calldata of a settlement: one transferWithAuthorization, or many through Multicall3's
// aggregate3 with per-call failure allowed, and how each payment's outcome is read back.
import { eip3009ABI } from '@x402/evm';
import { decodeErrorResult, decodeFunctionResult, encodeFunctionData, isErc6492Signature, multicall3Abi, parseErc6492Signature, parseSignature, size } from 'viem';
import type { Address, Hex, Log } from 'viem';
import type { Eip3009Payload } from '../exact-evm-payload.ts';

/** keccak256("AuthorizationUsed(address,bytes32)"): USDC emits it for each authorization it executes. */
export const AUTHORIZATION_USED_TOPIC = '0x98de503528ee59b575ef0c0a2576a82497bfc029a5685b209e9ec333479b10a5';

/**
 * Gas limit of a batch, set by us: with allowFailure an inner call that runs out of gas does not
 * revert the batch, so an estimate with no slack settles nothing (docs/settlement.md). Measured
 * ~49.4k per payment plus ~40k per transaction; a contract payer's signature check (ERC-1271) costs
 * more, and is all a hostile wallet can burn of ours: contract payers go alone, at this limit.
 */
export function batchGasLimit(authorizations: readonly Eip3009Payload[], contractPayer = false): bigint {
  const contractSignatures = contractPayer ? authorizations.length : authorizations.filter((a) => size(a.signature) !== 65).length;
  return 60_000n + 55_000n * BigInt(authorizations.length) + CONTRACT_SIGNATURE_ALLOWANCE * BigInt(contractSignatures);
}

/** Gas allowed for a contract wallet's isValidSignature inside USDC, beyond an ECDSA payment. */
export const CONTRACT_SIGNATURE_ALLOWANCE = 60_000n;

/**
 * transferWithAuthorization's calldata: the (v, r, s) overload for 65-byte signatures, bytes otherwise.
 * An ERC-6492 wrapper is taken off (verification took it only from a deployed wallet): USDC asks
 * the wallet itself, with the inner signature.
 */
export function transferCalldata({ authorization: a, signature: given }: Eip3009Payload): Hex {
  const signature = isErc6492Signature(given) ? parseErc6492Signature(given).signature : given;
  const base = [a.from, a.to, a.value, a.validAfter, a.validBefore, a.nonce] as const;
  if (size(signature) !== 65) {
    return encodeFunctionData({ abi: eip3009ABI, functionName: 'transferWithAuthorization', args: [...base, signature] });
  }
  const { r, s, v, yParity } = parseSignature(signature);
  return encodeFunctionData({ abi: eip3009ABI, functionName: 'transferWithAuthorization', args: [...base, Number(v ?? BigInt(yParity + 27)), r, s] });
}

export function aggregate3Calldata(asset: Address, authorizations: readonly Eip3009Payload[]): Hex {
  return encodeFunctionData({
    abi: multicall3Abi,
    functionName: 'aggregate3',
    args: [authorizations.map((a) => ({ target: asset, allowFailure: true, callData: transferCalldata(a) }))],
  });
}

/** Each call's success and, for a failure, USDC's revert reason, from a simulated aggregate3. */
export function decodeAggregate3(data: Hex): { success: boolean; reason: string }[] {
  const results = decodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', data });
  return results.map(({ success, returnData }) => ({ success, reason: success ? '' : revertReason(returnData) }));
}

export function revertReason(returnData: Hex): string {
  if (returnData === '0x') return 'reverted without a reason';
  try {
    const decoded = decodeErrorResult({ abi: [], data: returnData });
    return decoded.args?.map(String).join(', ') || decoded.errorName;
  } catch {
    return `reverted with ${returnData.slice(0, 10)}`;
  }
}

const authorizationKey = (authorizer: string, nonce: string) => `${authorizer.toLowerCase()}:${nonce.toLowerCase()}`;

export const keyOf = ({ authorization }: Eip3009Payload) => authorizationKey(authorization.from, authorization.nonce);

/** The (authorizer, nonce) pairs USDC executed in a mined transaction: the only proof an item settled. */
export function authorizationsUsed(asset: Address, logs: readonly Pick<Log, 'address' | 'topics'>[]): Set<string> {
  const used = new Set<string>();
  for (const log of logs) {
    const [topic, authorizer, nonce] = log.topics;
    if (log.address.toLowerCase() !== asset.toLowerCase() || topic !== AUTHORIZATION_USED_TOPIC || !authorizer || !nonce) continue;
    used.add(authorizationKey(`0x${authorizer.slice(26)}`, nonce));
  }
  return used;
}
