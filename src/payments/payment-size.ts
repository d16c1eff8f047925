// How large a payment may be, checked before any other work on it. An x402 payment is a few hundred
// bytes (a smart wallet's signature adds a few thousand); anything far larger is padding, refused
// before it costs us parsing, verification or a byte of the ledger.

export const MAX_PAYMENT_BYTES = 16_384;

/**
 * Whether a payment, as a header string or as the object MCP carries, goes past `limit` bytes of
 * JSON. Walks the object with its own stack and stops as soon as the limit is passed, so a huge or
 * deeply nested object costs no more than the limit's worth of work.
 */
export function paymentTooLarge(payment: unknown, limit = MAX_PAYMENT_BYTES): boolean {
  if (typeof payment === 'string') return payment.length > limit;
  let size = 0;
  const stack: unknown[] = [payment];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') size += value.length + 2;
    else if (Array.isArray(value)) {
      size += 2 + value.length;
      for (const item of value) stack.push(item);
    } else if (value !== null && typeof value === 'object') {
      size += 2;
      for (const key in value) {
        size += key.length + 4;
        stack.push((value as Record<string, unknown>)[key]);
        if (size > limit) return true;
      }
    } else size += 5;
    if (size > limit) return true;
  }
  return false;
}
