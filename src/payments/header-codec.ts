// The two x402 header codecs on the hot path of every paid call, giving byte for byte what
// `@x402/core/http`'s give (checked in header-codec.test.ts). Theirs go through atob/btoa one
// character at a time (under voucher load ~45 µs to decode and ~25 µs to encode a voucher's headers,
// ~5 % of the main thread together); Buffer's base64 does the same in native code. The other headers
// keep the official codecs.
import type { PaymentPayload, SettleResponse } from '@x402/core/types';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A PAYMENT-SIGNATURE header's JSON; throws where the official decoder throws. */
export function decodePaymentSignatureHeader(header: string): PaymentPayload {
  if (!BASE64.test(header) || !atobAccepts(header)) throw new Error('Invalid payment signature header');
  return JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as PaymentPayload;
}

/**
 * What atob (the official decoder's) accepts beyond the alphabet, where Buffer is lenient: padding only
 * on a length that is a multiple of 4, and never 4k + 1 characters of data.
 */
function atobAccepts(header: string): boolean {
  let data = header.length;
  if (header.length % 4 === 0) {
    if (header.endsWith('==')) data -= 2;
    else if (header.endsWith('=')) data -= 1;
  } else if (header.includes('=')) {
    return false;
  }
  return data % 4 !== 1;
}

/** A PAYMENT-RESPONSE header: the settle response without its extension responses, which are not the buyer's. */
export function encodePaymentResponseHeader(response: SettleResponse): string {
  const { extensionResponses: _serverSide, ...buyerFacing } = response as SettleResponse & { extensionResponses?: unknown };
  return Buffer.from(JSON.stringify(buyerFacing), 'utf8').toString('base64');
}
