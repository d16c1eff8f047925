// A JSON POST to a tool route, unpaid (402) then paid (200), with the balances around the paid call.
import assert from 'node:assert/strict';
import type { TestGateway } from './gateway-harness.ts';
import { chainClients, fundedPayer, paymentHeader, readPaymentRequired, signPayment } from './payments.ts';

export function postJson(baseUrl: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

export interface PaidJsonCall {
  response: Response;
  /** The atomic amount the 402 asked for. */
  amount: string;
  /** What the payer's balance went down by. */
  spent: bigint;
  /** What the merchant's balance went up by. */
  merchantGot: bigint;
}

/** Asks for the price, signs it with a freshly funded payer, sends the paid call. */
export async function payForJson(t: TestGateway, path: string, body: unknown): Promise<PaidJsonCall> {
  const { balanceOf } = chainClients(t.devChain);
  const payer = await fundedPayer(t.devChain, '1');
  const unpaid = await postJson(t.baseUrl, path, body);
  assert.equal(unpaid.status, 402, await unpaid.clone().text());
  const requirements = readPaymentRequired(unpaid).accepts[0];
  assert.ok(requirements, 'the 402 offers requirements');
  const balances = () => Promise.all([balanceOf(payer.address), balanceOf(t.gateway.terms.payTo)]);
  const [payerBefore, merchantBefore] = await balances();
  const response = await postJson(t.baseUrl, path, body, { 'PAYMENT-SIGNATURE': paymentHeader(await signPayment(payer, requirements)) });
  const [payerAfter, merchantAfter] = await balances();
  return { response, amount: requirements.amount, spent: payerBefore - payerAfter, merchantGot: merchantAfter - merchantBefore };
}
