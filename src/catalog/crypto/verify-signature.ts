import { type Address, getAddress, hashMessage, type Hex, recoverMessageAddress } from 'viem';
import { z } from 'zod';
import { evmAddress } from '../fields.ts';
import { defineTool } from '../tool.ts';

/** Order of the secp256k1 group: r and s live in [1, n - 1]. */
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const SECP256K1_HALF_N = SECP256K1_N / 2n;
const STANDARD = 'EIP-191 personal_sign';
const ACCEPTED_V = [27, 28, 0, 1];

const signaturePattern = /^0x[0-9a-fA-F]{130}$/;

interface SignatureParts {
  r: bigint;
  s: bigint;
  v: number;
}

function splitSignature(signature: string): SignatureParts {
  return {
    r: BigInt(`0x${signature.slice(2, 66)}`),
    s: BigInt(`0x${signature.slice(66, 130)}`),
    v: parseInt(signature.slice(130, 132), 16),
  };
}

/** EIP-55: an all-lower or all-upper case address carries no checksum; a mixed-case one must match its own. */
function passesChecksumIfMixedCase(address: string): boolean {
  const hex = address.slice(2);
  const mixedCase = /[a-f]/.test(hex) && /[A-F]/.test(hex);
  return !mixedCase || !/^0x[0-9a-fA-F]{40}$/.test(address) || getAddress(address) === address;
}

const inCurveOrder = (value: bigint) => value >= 1n && value < SECP256K1_N;

function whyUnrecoverable({ r, s }: SignatureParts): string {
  if (!inCurveOrder(r)) return 'r is out of range: it must be between 1 and n - 1 (n: the secp256k1 group order)';
  if (!inCurveOrder(s)) return 's is out of range: it must be between 1 and n - 1 (n: the secp256k1 group order)';
  return 'no public key can be recovered from this signature (r is not the x-coordinate of a point on secp256k1)';
}

async function recoverSigner(message: string, signature: Hex): Promise<Address | null> {
  try {
    return await recoverMessageAddress({ message, signature });
  } catch {
    return null; // r or s out of range, or no point for r: the signature is simply invalid
  }
}

export const verifySignatureTool = defineTool({
  name: 'verify_signature',
  title: 'Verify a signed message',
  description:
    'Checks an EIP-191 personal_sign signature (what eth_sign / personal_sign and viem signMessage produce): ' +
    'which address signed the message, whether that is the expected signer, and whether the signature is canonical (low s, EIP-2). ' +
    'The message is always taken as UTF-8 text, even when it looks like 0x-hex. ' +
    'valid is true only when the signature recovers, has a low s and recovers to expectedSigner; otherwise reason says why.',
  price: '0.003',
  http: [{ method: 'POST', path: '/api/crypto/verify-signature' }],
  input: z.object({
    message: z.string().max(100_000).describe('The message that was signed, as text (signed as its UTF-8 bytes).'),
    signature: z
      .string()
      .trim()
      .regex(signaturePattern, { message: 'expected a 0x-prefixed 65-byte hex signature (132 characters)' })
      .superRefine((signature, ctx) => {
        if (!signaturePattern.test(signature)) return;
        const { v } = splitSignature(signature);
        if (!ACCEPTED_V.includes(v)) {
          ctx.addIssue({ code: 'custom', message: `the last byte (v) must be 27 or 28 (0 or 1 also accepted); got 0x${v.toString(16).padStart(2, '0')} (${v})` });
        }
      })
      .describe('The signature, 0x-prefixed 65-byte hex (r, s, v), v being 27/28 or 0/1.'),
    expectedSigner: evmAddress('The address expected to have signed.').refine(passesChecksumIfMixedCase, {
      message: 'the mixed-case address fails its EIP-55 checksum (a typo?); check it, or write it all in lower case',
    }),
  }),
  example: { message: 'hello world', signature: '0xa461f509887bd19e312c0c58467ce8ff8e300d3c1a90b608a760c5b80318eaf15fe57c96f9175d6cd4daad4663763baa7e78836e067d0163e9a2ccf2ff753f5b1b', expectedSigner: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' },
  annotations: { readOnlyHint: true, openWorldHint: false, idempotentHint: true },
  async handler({ message, signature, expectedSigner }) {
    const parts = splitSignature(signature);
    const lowS = parts.s <= SECP256K1_HALF_N;
    const recoveredSigner = await recoverSigner(message, signature as Hex); // hex shape checked by the schema
    const expected = getAddress(expectedSigner);
    const matchesExpectedSigner = recoveredSigner === expected;

    const reasons: string[] = [];
    if (recoveredSigner === null) {
      reasons.push(whyUnrecoverable(parts));
    } else {
      if (!lowS) {
        reasons.push('the signature is malleable: s is in the upper half of the secp256k1 order, which EIP-2 forbids (its canonical form has s = n - s and the other v)');
      }
      if (!matchesExpectedSigner) {
        reasons.push(`the signature recovers to ${recoveredSigner}, not to the expected signer: another key signed, or the message is not the one signed`);
      }
    }
    return {
      valid: reasons.length === 0,
      reason: reasons.length === 0 ? null : reasons.join('; '),
      recoveredSigner,
      expectedSigner: expected,
      matchesExpectedSigner,
      lowS,
      messageHash: hashMessage(message),
      standard: STANDARD,
    };
  },
});
