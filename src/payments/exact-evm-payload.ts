// The payload of the x402 "exact" scheme on EVM with EIP-3009: a signed TransferWithAuthorization.
import { z } from 'zod';
import type { Address, Hex } from 'viem';

const uint256 = z.string().regex(/^\d{1,78}$/, { message: 'expected a decimal uint256 string' });
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, { message: 'expected a 20-byte hex address' });

/**
 * The longest signature taken: an ECDSA one is 65 bytes; smart-wallet signatures (ERC-1271, with a
 * WebAuthn assertion, wrapped in ERC-6492) run to a few hundred or a couple of thousand.
 */
export const MAX_SIGNATURE_BYTES = 4_096;

export const eip3009PayloadSchema = z.object({
  signature: z.string().max(2 + 2 * MAX_SIGNATURE_BYTES, { message: `expected at most ${MAX_SIGNATURE_BYTES} bytes` }).regex(/^0x([0-9a-fA-F]{2})+$/, { message: 'expected a 0x-prefixed hex signature' }),
  authorization: z.object({
    from: address,
    to: address,
    value: uint256,
    validAfter: uint256,
    validBefore: uint256,
    nonce: z.string().regex(/^0x[0-9a-fA-F]{64}$/, { message: 'expected a 0x-prefixed bytes32 nonce' }),
  }),
});

export interface Eip3009Authorization {
  from: Address;
  to: Address;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: Hex;
}

export interface Eip3009Payload {
  signature: Hex;
  authorization: Eip3009Authorization;
}

export function parseEip3009Payload(payload: unknown): { ok: true; value: Eip3009Payload } | { ok: false; message: string } {
  const parsed = eip3009PayloadSchema.safeParse(payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, message: `payload.${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}` };
  }
  const a = parsed.data.authorization;
  return {
    ok: true,
    value: {
      signature: parsed.data.signature as Hex,
      authorization: {
        from: a.from as Address,
        to: a.to as Address,
        value: BigInt(a.value),
        validAfter: BigInt(a.validAfter),
        validBefore: BigInt(a.validBefore),
        nonce: a.nonce as Hex,
      },
    },
  };
}

/**
 * What the ledger keeps of a payment: the authorization's six fields and the signature, in one
 * fixed order, whatever else the client sent beside them (bounded: MAX_SIGNATURE_BYTES).
 */
export function serializeAuthorization({ signature, authorization: a }: Eip3009Payload): string {
  return JSON.stringify({
    signature,
    authorization: {
      from: a.from, to: a.to, value: a.value.toString(), validAfter: a.validAfter.toString(), validBefore: a.validBefore.toString(), nonce: a.nonce,
    },
  });
}
