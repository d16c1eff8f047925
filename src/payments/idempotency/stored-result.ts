// Serving a retry from what the first attempt stored. A retry may carry the very same signed
// authorization, or a fresh one (x402 clients sign again after every 402): either way its signer
// must be the payer of the stored payment, or anyone who learnt an identifier could read the result.
import { getAddress } from 'viem';
import type { PaymentPayload, PaymentRequirements, SettleResponse } from '@x402/core/types';
import type { Eip3009Payload } from '../exact-evm-payload.ts';
import { recoverAuthorizationSigner } from '../facilitator/signature.ts';
import type { PaymentRecord } from '../ledger/payment-ledger.ts';
import type { PaymentNetwork } from '../networks.ts';

export async function signedByPayer(
  record: PaymentRecord,
  payload: PaymentPayload,
  authorization: Eip3009Payload,
  requirements: PaymentRequirements,
  network: PaymentNetwork,
): Promise<boolean> {
  if (record.signedAuthorization !== null && record.signedAuthorization === JSON.stringify(payload.payload)) return true;
  // A contract wallet's signature needs the chain to check; only its identical payload is accepted.
  if (authorization.signature.length !== 132) return false;
  const extra = requirements.extra as { name?: unknown; version?: unknown } | undefined;
  if (typeof extra?.name !== 'string' || typeof extra.version !== 'string') return false;
  const recovered = await recoverAuthorizationSigner(
    { name: extra.name, version: extra.version, chainId: network.chainId, verifyingContract: getAddress(requirements.asset) },
    authorization.authorization,
    authorization.signature,
  );
  return recovered.ok && recovered.signer.toLowerCase() === record.payer.toLowerCase();
}

/** The PAYMENT-RESPONSE the first attempt answered with, rebuilt from the ledger's row. */
export function storedSettlement(record: PaymentRecord): SettleResponse {
  return { success: true, transaction: record.txHash ?? '', network: record.network as SettleResponse['network'], payer: getAddress(record.payer) };
}
