// Calls a tool route with its documented example: unpaid (402), then paid (200), as an agent would.
import type { HttpRoute, Tool } from '../../src/catalog/tool.ts';
import { exampleRequest } from '../../src/faces/http/http-example.ts';
import type { PrivateKeyAccount } from 'viem';
import { paymentHeader, readPaymentRequired, readPaymentResponse, signPayment } from './payments.ts';

export function sendExample(baseUrl: string, tool: Tool, route: HttpRoute, headers: Record<string, string> = {}): Promise<Response> {
  const request = exampleRequest(tool, route);
  return fetch(`${baseUrl}${request.pathWithQuery}`, {
    method: request.method,
    headers: { ...headers, ...(request.body ? { 'content-type': 'application/json' } : {}) },
    ...(request.body ? { body: JSON.stringify(request.body) } : {}),
  });
}

/** Pays for one call of the route's example; returns the settlement transaction hash. */
export async function payForExample(baseUrl: string, tool: Tool, route: HttpRoute, payer: PrivateKeyAccount): Promise<string> {
  const unpaid = await sendExample(baseUrl, tool, route);
  if (unpaid.status !== 402) throw new Error(`${route.path}: expected 402, got ${unpaid.status}: ${await unpaid.text()}`);
  const requirements = readPaymentRequired(unpaid).accepts[0];
  if (!requirements) throw new Error(`${route.path}: the 402 offered no requirements`);
  const paid = await sendExample(baseUrl, tool, route, { 'PAYMENT-SIGNATURE': paymentHeader(await signPayment(payer, requirements)) });
  const settlement = readPaymentResponse(paid);
  if (paid.status !== 200 || !settlement?.success) throw new Error(`${route.path}: expected a settled 200, got ${paid.status}: ${await paid.text()}`);
  return settlement.transaction;
}
