// What a retry carrying a payment-identifier must prove before it may read the ledger or wait.
import { getAddress, isAddressEqual, size } from 'viem';
import type { Address } from 'viem';
import type { PaymentRequirements } from '@x402/core/types';
import type { Eip3009Payload } from '../exact-evm-payload.ts';
import { recoverAuthorizationSigner } from '../facilitator/signature.ts';
import type { PaymentNetwork } from '../networks.ts';

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
