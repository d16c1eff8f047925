// The payload of x402's `batch-settlement` scheme on EVM, checked for shape before the SDK sees it:
// the SDK's own type guards look only at `type` and a few keys, and its hooks call BigInt() and
// hash the channel config, which throw on junk. Shapes from @x402/evm 2.27 (types-*.d.mts).
import { z } from 'zod';
import { MAX_SIGNATURE_BYTES } from '../../exact-evm-payload.ts';

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, { message: 'expected a 20-byte hex address' });
const bytes32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/, { message: 'expected a 0x-prefixed bytes32' });
const uint = z.string().regex(/^\d{1,78}$/, { message: 'expected a decimal integer string' });
const signature = z
  .string()
  .max(2 + 2 * MAX_SIGNATURE_BYTES, { message: `expected at most ${MAX_SIGNATURE_BYTES} bytes` })
  .regex(/^0x([0-9a-fA-F]{2})+$/, { message: 'expected a 0x-prefixed hex signature' });

const channelConfig = z.object({
  payer: address,
  payerAuthorizer: address,
  receiver: address,
  receiverAuthorizer: address,
  token: address,
  // uint40 on chain.
  withdrawDelay: z.number().int().min(0).max(2 ** 40 - 1),
  salt: bytes32,
});

const voucher = z.object({ channelId: bytes32, maxClaimableAmount: uint, signature });

const erc3009Authorization = z.object({ validAfter: uint, validBefore: uint, salt: bytes32, signature });
const permit2Authorization = z.object({
  from: address,
  permitted: z.object({ token: address, amount: uint }),
  spender: address,
  nonce: uint,
  deadline: uint,
  witness: z.object({ channelId: bytes32 }),
  signature,
});

const depositAuthorization = z.union([
  z.object({ erc3009Authorization, permit2Authorization: z.undefined().optional() }),
  z.object({ permit2Authorization, erc3009Authorization: z.undefined().optional() }),
], { message: 'expected exactly one of erc3009Authorization and permit2Authorization' });

const batchSettlementPayloadSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('deposit'), channelConfig, voucher, deposit: z.object({ amount: uint, authorization: depositAuthorization }) }),
  z.object({ type: z.literal('voucher'), channelConfig, voucher }),
  z.object({ type: z.literal('refund'), channelConfig, voucher, amount: uint.optional() }),
], { message: 'expected type "deposit", "voucher" or "refund"' });

export type BatchSettlementPayloadType = 'deposit' | 'voucher' | 'refund';

/** A payload of a shape the scheme defines: its type, channel, payer, voucher total and any deposit. */
export interface CheckedBatchSettlementPayload {
  ok: true;
  type: BatchSettlementPayloadType;
  channelId: string;
  payer: string;
  /** The voucher's maxClaimableAmount: the channel's charged total once this call is charged. */
  cumulative: bigint;
  /** A deposit's amount (atomic USDC). */
  deposit?: bigint;
}

/** The payload's type and channel if its shape is one the scheme defines, else what is wrong with it. */
export function checkBatchSettlementPayload(payload: unknown): CheckedBatchSettlementPayload | { ok: false; message: string } {
  const parsed = batchSettlementPayloadSchema.safeParse(payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, message: `payload.${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}` };
  }
  const { data } = parsed;
  return {
    ok: true, type: data.type, channelId: data.voucher.channelId, payer: data.channelConfig.payer, cumulative: BigInt(data.voucher.maxClaimableAmount),
    ...(data.type === 'deposit' ? { deposit: BigInt(data.deposit.amount) } : {}),
  };
}
