// One paid call as a caller makes it: ask for the price (402), pay with a funded payer, and see
// what happened on chain, so end-to-end tests assert on settlement and balance, not on our word.
import assert from 'node:assert/strict';
import type { PrivateKeyAccount } from 'viem';
import type { TestGateway } from './gateway-harness.ts';
import { chainClients, fundedPayer, paymentHeader, readPaymentRequired, readPaymentResponse, signPayment } from './payments.ts';

export interface PaidCall {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
  settled: boolean;
  /** What the payer's balance went down by. */
  spent: bigint;
}

export interface PaidRequest {
  method?: 'GET' | 'POST';
  /** A JSON body (POST). */
  body?: unknown;
  payer?: PrivateKeyAccount;
}

/** Asks for the price (402), pays with a fresh payer (or the one given), and reports what happened on chain. */
export async function payFor(t: TestGateway, pathWithQuery: string, request: PaidRequest = {}): Promise<PaidCall> {
  const { balanceOf } = chainClients(t.devChain);
  const account = request.payer ?? (await fundedPayer(t.devChain, '1'));
  const send = (headers: Record<string, string>) =>
    fetch(`${t.baseUrl}${pathWithQuery}`, {
      method: request.method ?? 'GET',
      headers: { ...headers, ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
    });
  const unpaid = await send({});
  assert.equal(unpaid.status, 402, `${pathWithQuery}: ${await unpaid.clone().text()}`);
  const requirements = readPaymentRequired(unpaid).accepts[0]!;
  const before = await balanceOf(account.address);
  const paid = await send({ 'PAYMENT-SIGNATURE': paymentHeader(await signPayment(account, requirements)) });
  const body = (await paid.json()) as Record<string, unknown>;
  const spent = before - (await balanceOf(account.address));
  return { status: paid.status, body, headers: paid.headers, settled: readPaymentResponse(paid)?.success === true, spent };
}

export function assertNotCharged(call: PaidCall): void {
  assert.equal(call.settled, false, 'no PAYMENT-RESPONSE success');
  assert.equal(call.spent, 0n, 'the payer\'s balance did not move');
  assert.equal(call.body.charged, false);
}

export const withQuery = (path: string, params: Record<string, string>) => `${path}?${new URLSearchParams(params)}`;
