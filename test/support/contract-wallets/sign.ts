// Payments from contract wallets: an EIP-3009 authorization whose `from` is the wallet, signed by
// its owner's key, with the signature made longer than 65 bytes so that USDC and the gateway take
// the contract path (USDC's `bytes signature` overload, ERC-1271).
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import type { Address, Hex, PrivateKeyAccount } from 'viem';
import type { SignOptions } from '../payments.ts';
import { signPayment } from '../payments.ts';

/** The owner's 65-byte ECDSA signature over the authorization's digest, plus one byte the wallet ignores (66 bytes). */
export async function signAsContractWallet(
  wallet: Address,
  owner: PrivateKeyAccount,
  requirements: PaymentRequirements,
  options: SignOptions = {},
): Promise<PaymentPayload> {
  // signPayment authorizes for `payer.address` and signs with `payer.signTypedData`: the wallet's address, the owner's key.
  const payload = await signPayment({ ...owner, address: wallet }, requirements, options);
  const { signature } = payload.payload as { signature: Hex };
  return { ...payload, payload: { ...payload.payload, signature: `${signature}00` } };
}
