// The payer's signature on a batch-settlement voucher, checked the way the channel contract checks it
// at claim time (OpenZeppelin's ECDSA over the EIP-712 digest of Voucher(channelId, maxClaimableAmount)):
// 65 bytes, v byte 27 or 28, low s. The SDK's local check (viem's verifyTypedData) also accepts a high
// s and a v of 0/1, which the contract refuses: such a voucher is served but its claim reverts.
// The digest is computed from fixed-size words (checked against viem's hashTypedData in tests) and
// recovered natively: ~0.1 ms where the SDK's path takes ~2.5 ms.
import { BATCH_SETTLEMENT_ADDRESS, BATCH_SETTLEMENT_DOMAIN } from '@x402/evm';
import { getAddress, keccak256, toBytes } from 'viem';
import type { Hex } from 'viem';
import { keccak256Hex } from '../../facilitator/keccak.ts';
import { domainSeparator, recoverLowSSigner, word } from '../../facilitator/signature.ts';
import type { Eip712Domain, RecoveryResult } from '../../facilitator/signature.ts';

const VOUCHER_TYPEHASH = keccak256(toBytes('Voucher(bytes32 channelId,uint128 maxClaimableAmount)'));

export function voucherDomain(chainId: number): Eip712Domain {
  return { name: BATCH_SETTLEMENT_DOMAIN.name, version: BATCH_SETTLEMENT_DOMAIN.version, chainId, verifyingContract: getAddress(BATCH_SETTLEMENT_ADDRESS) };
}

/** The EIP-712 digest a payer signs for a voucher: what the contract recovers the payer authorizer from. */
export function voucherDigest(chainId: number, channelId: Hex, maxClaimableAmount: bigint): Hex {
  const struct = keccak256Hex(`${VOUCHER_TYPEHASH}${channelId.slice(2).toLowerCase()}${word(maxClaimableAmount)}`);
  return keccak256Hex(`0x1901${domainSeparator(voucherDomain(chainId)).slice(2)}${struct.slice(2)}`);
}

/** Who signed the voucher, or why the contract would refuse its signature. */
export function recoverVoucherSigner(chainId: number, channelId: Hex, maxClaimableAmount: bigint, signature: Hex): Promise<RecoveryResult> {
  // The contract reads v from the signature's last byte and ecrecover takes only 27 or 28.
  if (signature.length !== 132) return Promise.resolve({ ok: false, reason: 'unrecoverable' });
  const v = signature.slice(130).toLowerCase();
  if (v !== '1b' && v !== '1c') return Promise.resolve({ ok: false, reason: 'bad_v' });
  return recoverLowSSigner(voucherDigest(chainId, channelId, maxClaimableAmount), signature);
}
