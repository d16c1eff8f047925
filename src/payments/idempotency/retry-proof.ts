// What proves that a retry carrying a payment-identifier is the payer's, made for this request:
// the very authorization first sent (byte for byte the stored one), or a fresh authorization for
// the same terms that could still be settled: paying payTo the price, valid now and not for much
// longer than the requirements allow, its nonce never used (not in our ledger, not on chain).
// A signature of the payer alone is not enough: every transferWithAuthorization the payer ever made
// is public on chain, and any of them recovers to the payer.
import { getAddress, isAddressEqual, size } from 'viem';
import type { Address, Hex } from 'viem';
import type { PaymentRequirements } from '@x402/core/types';
import type { Eip3009Payload } from '../exact-evm-payload.ts';
import { serializeAuthorization } from '../exact-evm-payload.ts';
import { VALID_BEFORE_BUFFER_SECONDS } from '../facilitator/embedded-facilitator.ts';
import { recoverAuthorizationSigner } from '../facilitator/signature.ts';
import type { PaymentLedger, PaymentRecord } from '../ledger/payment-ledger.ts';
import type { PaymentNetwork } from '../networks.ts';

/** How far past `maxTimeoutSeconds` a fresh authorization may reach (clients' clocks run ahead). */
export const FRESH_VALIDITY_ALLOWANCE_SECONDS = 30n;

/** The chain's record of EIP-3009 nonces (USDC's `authorizationState`). */
export interface NonceState {
  authorizationUsed(payer: Address, nonce: Hex): Promise<boolean>;
}

/**
 * Checked before the ledger is read or anyone waits: the authorization pays these terms and, for a
 * 65-byte signature, is signed by its `from` (the payer the request's fingerprint names).
 * `unchecked`: a contract wallet's signature, which needs the chain; only the stored authorization
 * itself will then do.
 */
export async function signedForTerms(
  { authorization, signature }: Eip3009Payload,
  requirements: PaymentRequirements,
  network: PaymentNetwork,
): Promise<'signed' | 'unchecked' | 'invalid'> {
  if (!isAddressEqual(authorization.to, requirements.payTo as Address) || authorization.value !== BigInt(requirements.amount)) return 'invalid';
  if (size(signature) !== 65) return 'unchecked';
  const extra = requirements.extra as { name?: unknown; version?: unknown } | undefined;
  if (typeof extra?.name !== 'string' || typeof extra.version !== 'string') return 'invalid';
  const recovered = await recoverAuthorizationSigner(
    { name: extra.name, version: extra.version, chainId: network.chainId, verifyingContract: getAddress(requirements.asset) },
    authorization,
    signature,
  );
  return recovered.ok && isAddressEqual(recovered.signer, authorization.from) ? 'signed' : 'invalid';
}

export interface RetryProofContext {
  signature: 'signed' | 'unchecked';
  nowSeconds: bigint;
  ledger: Pick<PaymentLedger, 'find'>;
  /** Absent (a remote facilitator): only the very authorization first sent proves a retry. */
  nonces: NonceState | undefined;
}

/**
 * Whether this retry proves to be the stored payment's payer's, made for this request (its payer is
 * the record's: the request fingerprints match). Throws if the ledger or the chain cannot be read.
 */
export async function provesRetry(
  record: PaymentRecord,
  signed: Eip3009Payload,
  requirements: PaymentRequirements,
  context: RetryProofContext,
): Promise<boolean> {
  // The ledger keeps the parsed authorization in one fixed form (serializeAuthorization).
  if (record.signedAuthorization !== null && record.signedAuthorization === serializeAuthorization(signed)) return true;
  const { authorization } = signed;
  if (context.signature !== 'signed' || !context.nonces) return false;
  const now = context.nowSeconds;
  if (authorization.validAfter > now || authorization.validBefore < now + VALID_BEFORE_BUFFER_SECONDS) return false;
  if (authorization.validBefore > now + BigInt(requirements.maxTimeoutSeconds) + FRESH_VALIDITY_ALLOWANCE_SECONDS) return false;
  if (await context.ledger.find(authorization.from, authorization.nonce)) return false;
  return !(await context.nonces.authorizationUsed(authorization.from, authorization.nonce));
}
