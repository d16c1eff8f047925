// distill_document and generate_embeddings paid for over real HTTP through the gate: a local
// anvil with Circle's USDC, the embedded facilitator, loopback. Unpaid -> 402 -> signed -> 200
// with a settled PAYMENT-RESPONSE; bad input -> 400 naming the field, no payment asked; an
// upstream failure of the embeddings API -> 502 and nothing moves.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { PrivateKeyAccount } from 'viem';
import type { TestGateway } from '../../../test/support/gateway-harness.ts';
import { startTestGateway } from '../../../test/support/gateway-harness.ts';
import { payForJson, postJson } from '../../../test/support/paid-json.ts';
import { chainClients, fundedPayer, paymentHeader, readPaymentRequired, readPaymentResponse, signPayment } from '../../../test/support/payments.ts';
import type { Distillation } from './distill/distill-document.ts';
import type { EmbeddingAnswer } from './embed.ts';

let t: TestGateway;
let clients: ReturnType<typeof chainClients>;
before(async () => {
  t = await startTestGateway();
  clients = chainClients(t.devChain);
});
after(() => t?.close());

const post = (path: string, body: unknown, headers: Record<string, string> = {}) => postJson(t.baseUrl, path, body, headers);

async function balances(payer: PrivateKeyAccount) {
  const [p, m] = await Promise.all([clients.balanceOf(payer.address), clients.balanceOf(t.gateway.terms.payTo)]);
  return { payer: p, merchant: m };
}

/** Unpaid call, then the same call paid; returns the paid response and what it cost the payer. */
async function payFor(path: string, body: unknown): Promise<{ response: Response; paid: bigint; amount: string }> {
  const { response, spent, amount } = await payForJson(t, path, body);
  return { response, paid: spent, amount };
}

describe('POST /api/distill', () => {
  test('a real document is paid for (0.015 USDC) and distilled', async () => {
    const content = readFileSync(new URL('../../../test/fixtures/distill-corpus/license-apache-2.0.txt', import.meta.url), 'utf8');
    const { response, paid, amount } = await payFor('/api/distill', { content, url: 'https://www.apache.org/licenses/LICENSE-2.0.txt' });
    assert.equal(response.status, 200, await response.clone().text());
    assert.equal(readPaymentResponse(response)?.success, true);
    assert.equal(amount, '15000');
    assert.equal(paid, 15_000n);
    const answer = (await response.json()) as Distillation;
    assert.match(answer.title, /Apache License/);
    assert.equal(answer.url, 'https://www.apache.org/licenses/LICENSE-2.0.txt');
    assert.equal(answer.kind, 'licence');
    // The default budget is 20% of the text, more for a short one (28% at 2,000 tokens): a 2,000-token licence saves about 78%.
    assert.ok(answer.tokens.savedPercent >= 75, JSON.stringify(answer.tokens));
  });

  test('bad input answers 400 naming the field, before any payment is asked', async () => {
    for (const [body, field] of [
      [{}, 'content'],
      [{ content: '   ' }, 'content'],
      [{ content: 'x', url: 'ftp://example.com' }, 'url'],
      [{ content: 'x', detail: 'everything' }, 'detail'],
      [{ content: 'x', maxTokens: 10 }, 'maxTokens'],
    ] as const) {
      const response = await post('/api/distill', body);
      assert.equal(response.status, 400);
      const answer = (await response.json()) as { error: string; issues: { field: string }[]; charged: boolean };
      assert.equal(answer.error, 'invalid_input');
      assert.equal(answer.issues[0]?.field, field);
      assert.equal(answer.charged, false);
      assert.equal(response.headers.get('payment-required'), null);
    }
  });
});

describe('POST /api/ai/embed', () => {
  test('a text is paid for (0.008 USDC) and embedded with the built-in model', async () => {
    const { response, paid, amount } = await payFor('/api/ai/embed', { text: 'Agents pay for each tool call in USDC.' });
    assert.equal(response.status, 200, await response.clone().text());
    assert.equal(readPaymentResponse(response)?.success, true);
    assert.equal(amount, '8000');
    assert.equal(paid, 8_000n);
    const answer = (await response.json()) as EmbeddingAnswer;
    assert.equal(answer.model, 'sif-glove-6b-100d');
    assert.equal(answer.dimensions, 100);
    assert.equal(answer.normalization, 'l2');
    assert.equal(answer.embedding.length, 100);
  });

  test('bad input answers 400 naming text, before any payment is asked', async () => {
    for (const body of [{}, { text: '' }, { text: ' \n ' }, { text: 7 }]) {
      const response = await post('/api/ai/embed', body);
      assert.equal(response.status, 400);
      const answer = (await response.json()) as { issues: { field: string }[]; charged: boolean };
      assert.equal(answer.issues[0]?.field, 'text');
      assert.equal(answer.charged, false);
    }
  });

  describe('with an OpenAI-compatible API configured', () => {
    let upstream: Server;
    const saved = { ...process.env };
    before(async () => {
      upstream = createServer((request, response) => {
        request.resume();
        request.on('end', () => {
          response.writeHead(500, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ error: { message: 'upstream down' } }));
        });
      });
      await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
      process.env.TOOLGATE_EMBEDDINGS_URL = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
    });
    after(() => {
      process.env = saved;
      upstream.close();
    });

    test('an upstream 500 answers 502 and the payer is not charged', async () => {
      const payer = await fundedPayer(t.devChain, '1');
      const unpaid = await post('/api/ai/embed', { text: 'hello' });
      assert.equal(unpaid.status, 402);
      const before = await balances(payer);
      const response = await post('/api/ai/embed', { text: 'hello' }, { 'PAYMENT-SIGNATURE': paymentHeader(await signPayment(payer, readPaymentRequired(unpaid).accepts[0]!)) });
      assert.equal(response.status, 502, await response.clone().text());
      const answer = (await response.json()) as { error: string; charged: boolean };
      assert.equal(answer.error, 'embeddings_upstream_error');
      assert.equal(answer.charged, false);
      assert.equal(response.headers.get('payment-response'), null);
      assert.deepEqual(await balances(payer), before);
    });
  });
});
