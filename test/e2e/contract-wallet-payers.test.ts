// Issue 21, finding 1: a payer whose code decides its settlement's outcome. Real gateway, real anvil,
// Circle's real USDC; every outcome read from on-chain balances and the settler's receipts.
//
// The policy these tests hold the gateway to:
// - a contract payer (code at its address, ERC-1271 or EIP-7702, or a signature that is not 65
//   bytes) is settled in a transaction of its own, and answered only once the receipt shows USDC's
//   AuthorizationUsed for it, in both settlement modes;
// - a payer whose settlement failed on chain is refused before any tool runs for a while (402,
//   `error` starting `payer_cooling_down`): at most one tool run per on-chain action of its own;
// - an honest ERC-1271 wallet keeps paying and getting its results.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { PaymentPayload, PaymentRequirements, SettleResponse } from '@x402/core/types';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Address, Hex, PrivateKeyAccount } from 'viem';
import type { DevChain } from '../../src/chain/devchain.ts';
import { startDevChain } from '../../src/chain/devchain.ts';
import type { SettlementMode } from '../../src/payments/settlement/settlement.ts';
import { signAsContractWallet } from '../support/contract-wallets/sign.ts';
import { carries, settlerTransactions } from '../support/contract-wallets/settler-transactions.ts';
import type { SettlerTransaction } from '../support/contract-wallets/settler-transactions.ts';
import { settlementDepth, settlementIdle, until } from '../support/contract-wallets/settlement-state.ts';
import { ContractWallets } from '../support/contract-wallets/wallets.ts';
import type { TestGateway } from '../support/gateway-harness.ts';
import { startTestGateway } from '../support/gateway-harness.ts';
import { withMiningPaused } from '../support/mining.ts';
import { chainClients, fundedPayer, paymentHeader, readPaymentRequired, readPaymentResponse, signPayment } from '../support/payments.ts';
import { countingEchoTool } from '../support/test-tools.ts';

const PRICE = '0.001';
const PRICE_ATOMIC = 1_000n;
const WALLET_USDC = 10_000_000n;
const HONEST_IN_BATCH = 10;

let chain: DevChain;
let wallets: ContractWallets;
let clients: ReturnType<typeof chainClients>;
let settlers: Address[];

/** Gas the settler burnt on failed contract-wallet settlements, printed at the end for the closing note. */
const burnt: { mode: SettlementMode; payer: string; tx: Hex; status: string; gasUsed: bigint; gasLimit: bigint; payersInTx: number }[] = [];

before(async () => {
  chain = await startDevChain({ tokenName: 'USD Coin' });
  wallets = new ContractWallets(chain);
  clients = chainClients(chain);
  settlers = [privateKeyToAccount(chain.settlerKey).address];
});
after(async () => {
  if (burnt.length > 0) {
    console.log('settler gas burnt on failed contract-wallet settlements:');
    console.table(burnt.map((b) => ({ ...b, gasUsed: b.gasUsed.toString(), gasLimit: b.gasLimit.toString() })));
  }
  await chain?.stop();
});

interface Attempt {
  status: number;
  /** The 402's `error` (body, else the PAYMENT-REQUIRED header). */
  error: string;
  delivered: boolean;
  settlement: SettleResponse | undefined;
  payerDelta: bigint;
  merchantDelta: bigint;
}

const word = (i: number) => `w${i}`;

async function requirementsOf(t: TestGateway): Promise<PaymentRequirements> {
  const response = await fetch(`${t.baseUrl}/test/echo?word=${word(0)}`);
  assert.equal(response.status, 402);
  const accepted = readPaymentRequired(response).accepts[0];
  assert.ok(accepted);
  return accepted;
}

/** Sends one paid call and reads what came back; balances are the caller's to read. */
async function send(t: TestGateway, payload: PaymentPayload, i = 0): Promise<Omit<Attempt, 'payerDelta' | 'merchantDelta'>> {
  const response = await fetch(`${t.baseUrl}/test/echo?word=${word(i)}`, { headers: { 'PAYMENT-SIGNATURE': paymentHeader(payload) } });
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not JSON: no result, no error field
  }
  const header = response.status === 402 && response.headers.get('payment-required') ? readPaymentRequired(response).error : undefined;
  return {
    status: response.status,
    error: typeof body.error === 'string' ? body.error : (header ?? ''),
    delivered: response.status === 200 && body.echo === word(i),
    settlement: readPaymentResponse(response),
  };
}

/** One attempt with balances read before and after, once every settlement outcome is on chain. */
async function attempt(t: TestGateway, payer: Address, payload: PaymentPayload, i: number): Promise<Attempt> {
  const merchant = t.gateway.terms.payTo as Address;
  const [payerBefore, merchantBefore] = await Promise.all([clients.balanceOf(payer), clients.balanceOf(merchant)]);
  const answer = await send(t, payload, i);
  await settlementIdle(t, clients.publicClient, settlers);
  const [payerAfter, merchantAfter] = await Promise.all([clients.balanceOf(payer), clients.balanceOf(merchant)]);
  return { ...answer, payerDelta: payerAfter - payerBefore, merchantDelta: merchantAfter - merchantBefore };
}

/** Settler transactions since `fromBlock` carrying `payer` whose receipt lacks its AuthorizationUsed: gas burnt for nothing. */
async function recordBurnt(mode: SettlementMode, label: string, payer: Address, fromBlock: bigint): Promise<SettlerTransaction[]> {
  const all = await settlerTransactions(clients.publicClient, settlers, chain.usdc, fromBlock);
  const failed = all.filter((tx) => carries(tx, payer) && !tx.authorizationsUsed.has(payer));
  for (const tx of failed) {
    const payersInTx = countPayers(tx);
    burnt.push({ mode, payer: label, tx: tx.hash, status: tx.status, gasUsed: tx.gasUsed, gasLimit: tx.gasLimit, payersInTx });
    console.log(`[${mode}] ${label}: settler tx ${tx.hash} ${tx.status}, gasUsed ${tx.gasUsed} of limit ${tx.gasLimit}, ${payersInTx} payment(s) in it`);
  }
  return all;
}

/** transferWithAuthorization calls in a settlement's calldata (its selectors, both overloads). */
function countPayers(tx: SettlerTransaction): number {
  const selectors = ['e3ee160e', 'cf092995']; // (v, r, s) and (bytes signature) overloads
  return selectors.reduce((n, s) => n + tx.input.toLowerCase().split(s).length - 1, 0);
}

const describeAttempts = (attempts: Attempt[]) =>
  attempts.map((a, i) => `#${i + 1}: ${a.status}${a.delivered ? ' with the result' : ''}${a.error ? ` (${a.error})` : ''}, merchant ${a.merchantDelta >= 0n ? '+' : ''}${a.merchantDelta}`).join('; ');

for (const mode of ['submitted', 'confirmed'] as const satisfies readonly SettlementMode[]) {
  describe(`TOOLGATE_SETTLEMENT_MODE=${mode}`, () => {
    let t: TestGateway;
    const echo = countingEchoTool(PRICE);

    before(async () => {
      t = await startTestGateway({
        devChain: chain,
        catalog: [echo.tool],
        env: {
          TOOLGATE_SETTLEMENT_MODE: mode,
          // Payments arriving while the settler key is busy wait for it (not for the window) and
          // leave together: see the batch test. Mining is paused there, so nothing may time out.
          TOOLGATE_SETTLEMENT_BATCH_WINDOW_MS: '60000',
          TOOLGATE_RECEIPT_TIMEOUT_MS: '60000',
          TOOLGATE_SETTLEMENT_REPLACE_AFTER_MS: '60000',
        },
      });
    });
    after(() => t?.close());

    /** Three attempts by a payer whose wallet says yes to every simulation and no on chain. */
    async function threeLyingAttempts(label: string, payer: Address, sign: (r: PaymentRequirements) => Promise<PaymentPayload>) {
      const requirements = await requirementsOf(t);
      const fromBlock = await clients.publicClient.getBlockNumber();
      const runsBefore = echo.runs.count;
      const attempts: Attempt[] = [];
      for (let i = 1; i <= 3; i += 1) attempts.push(await attempt(t, payer, await sign(requirements), i));
      const runs = echo.runs.count - runsBefore;
      const merchantDelta = attempts.reduce((sum, a) => sum + a.merchantDelta, 0n);
      console.log(`[${mode}] ${label}: ${describeAttempts(attempts)}; tool runs ${runs}`);
      await recordBurnt(mode, label, payer, fromBlock);

      const delivered = attempts.filter((a) => a.delivered).length;
      assert.equal(delivered, 0, `results delivered for nothing: ${describeAttempts(attempts)}`);
      for (const a of attempts) assert.notEqual(a.status, 200);
      assert.equal(merchantDelta, 0n, 'the wallet never pays');
      assert.ok(attempts.every((a) => a.payerDelta === 0n));
      assert.ok(runs <= 1, `the tool ran ${runs} times for a payer whose settlements all failed on chain`);
      for (const later of attempts.slice(1)) {
        assert.equal(later.status, 402);
        assert.match(later.error, /^payer_cooling_down/, `a payer whose settlement failed on chain is refused before any tool runs: ${describeAttempts(attempts)}`);
      }
    }

    test('a lying ERC-1271 wallet (yes in eth_call, no on chain) gets no result for nothing, and no second tool run', async () => {
      const wallet = await wallets.hostileWallet('LyingWallet', WALLET_USDC);
      const key = privateKeyToAccount(generatePrivateKey());
      await threeLyingAttempts('lying ERC-1271 wallet', wallet, (r) => signAsContractWallet(wallet, key, r));
    });

    test('an EOA delegated by EIP-7702 to the lying wallet, with a 65-byte signature, gets no result for nothing', async () => {
      const { account } = await wallets.delegatedEoa('LyingWallet', WALLET_USDC);
      await threeLyingAttempts('EIP-7702 EOA delegated to the lying wallet', account.address, (r) => signPayment(account, r));
    });

    test(`a gas burner sent with ${HONEST_IN_BATCH} honest payers sinks none of them and gets nothing`, async () => {
      const burner = await wallets.hostileWallet('GasBurner', WALLET_USDC);
      const burnerKey = privateKeyToAccount(generatePrivateKey());
      const warmUp = await fundedPayer(chain, '1');
      const honest: PrivateKeyAccount[] = [];
      for (let i = 0; i < HONEST_IN_BATCH; i += 1) honest.push(await fundedPayer(chain, '1'));
      const requirements = await requirementsOf(t);
      const warmUpPayload = await signPayment(warmUp, requirements);
      const honestPayloads = await Promise.all(honest.map((p) => signPayment(p, requirements)));
      const burnerPayload = await signAsContractWallet(burner, burnerKey, requirements);

      const merchant = t.gateway.terms.payTo as Address;
      const everyone = [merchant, warmUp.address, burner, ...honest.map((p) => p.address)];
      const before = await Promise.all(everyone.map((a) => clients.balanceOf(a)));
      const fromBlock = await clients.publicClient.getBlockNumber();
      const runsBefore = echo.runs.count;

      // How payments come to share a batch: the warm-up's settlement is sent while mining is paused,
      // so the only settler key stays busy; the burner and the honest payers then queue behind it
      // (the 60 s window never closes first), and when mining resumes and the warm-up's receipt
      // comes, the key takes the whole queue as one transaction.
      const sent = await withMiningPaused(chain, async () => {
        const warm = send(t, warmUpPayload);
        await until(() => settlementDepth(t).inFlight >= 1, 'the warm-up settlement to hold the settler key');
        const calls = [burnerPayload, ...honestPayloads].map((p) => send(t, p));
        await until(() => echo.runs.count - runsBefore >= 2 + HONEST_IN_BATCH, 'every tool run');
        // Today every payment queues behind the warm-up; a fix may route the burner elsewhere, so this wait is bounded and not asserted.
        await until(() => settlementDepth(t).queued + settlementDepth(t).inFlight >= 2 + HONEST_IN_BATCH, 'every payment to reach the engine', 10_000).catch(() => {
          const { queued, inFlight } = settlementDepth(t);
          console.log(`[${mode}] gas burner: not every payment reached the engine's queue (queued ${queued}, in flight ${inFlight}); going on`);
        });
        return { warm, calls };
      });
      const warm = await sent.warm;
      const [burnerAnswer, ...honestAnswers] = await Promise.all(sent.calls);
      assert.ok(burnerAnswer);
      await settlementIdle(t, clients.publicClient, settlers);
      const afterBalances = await Promise.all(everyone.map((a) => clients.balanceOf(a)));
      const delta = (i: number) => afterBalances[i]! - before[i]!;
      const honestDelta = honest.map((_, i) => delta(3 + i));

      const transactions = await recordBurnt(mode, 'gas burner', burner, fromBlock);
      const burnerTxs = transactions.filter((tx) => carries(tx, burner));
      const sharing = burnerTxs.filter((tx) => [warmUp, ...honest].some((p) => carries(tx, p.address)));
      const honestDelivered = honestAnswers.filter((a, i) => a.status === 200 && a.settlement?.success === true && honestDelta[i] === -PRICE_ATOMIC).length;
      console.log(
        `[${mode}] gas burner + ${HONEST_IN_BATCH} honest: settler transactions ${transactions.map((tx) => `${tx.hash.slice(0, 10)} (${countPayers(tx)} payments, ${tx.status}, gas ${tx.gasUsed})`).join(', ')}; ` +
          `honest answered 200 ${honestAnswers.filter((a) => a.status === 200).length}/${HONEST_IN_BATCH}, paid ${honestDelta.filter((d) => d === -PRICE_ATOMIC).length}/${HONEST_IN_BATCH}; ` +
          `burner ${burnerAnswer.status}${burnerAnswer.delivered ? ' with the result' : ''}, paid ${-delta(2)}; merchant +${delta(0)} (expected +${BigInt(HONEST_IN_BATCH + 1) * PRICE_ATOMIC})`,
      );

      assert.equal(warm.status, 200, `the warm-up payer: ${warm.error}`);
      assert.equal(honestDelivered, HONEST_IN_BATCH, `honest payers with their result and paid once: ${honestDelivered}/${HONEST_IN_BATCH}; statuses ${honestAnswers.map((a) => a.status).join(',')}`);
      for (const [i, a] of honestAnswers.entries()) {
        assert.equal(a.status, 200, `honest payer ${i}: ${a.error}`);
        assert.ok(a.delivered, `honest payer ${i} got its result`);
        assert.equal(honestDelta[i], -PRICE_ATOMIC, `honest payer ${i} paid exactly once`);
      }
      assert.equal(delta(1), -PRICE_ATOMIC, 'the warm-up payer paid exactly once');
      assert.equal(delta(0), BigInt(HONEST_IN_BATCH + 1) * PRICE_ATOMIC, 'the merchant got each honest price once');
      assert.notEqual(burnerAnswer.status, 200);
      assert.equal(burnerAnswer.delivered, false, 'the burner got no result');
      assert.equal(delta(2), 0n, 'the burner paid nothing');
      assert.deepEqual(sharing.map((tx) => tx.hash), [], 'no honest payment shares a transaction with the burner');
      const burnerHashes = new Set(burnerTxs.map((tx) => tx.hash.toLowerCase()));
      for (const a of [warm, ...honestAnswers]) assert.ok(!burnerHashes.has((a.settlement?.transaction ?? '').toLowerCase()));
    });

    test('an honest ERC-1271 wallet (owner ECDSA, 66-byte signature) pays and gets its result', async () => {
      const wallet = await wallets.honest(WALLET_USDC);
      const requirements = await requirementsOf(t);
      const fromBlock = await clients.publicClient.getBlockNumber();
      const runsBefore = echo.runs.count;
      const result = await attempt(t, wallet.address, await signAsContractWallet(wallet.address, wallet.owner, requirements), 1);
      console.log(`[${mode}] honest ERC-1271 wallet: ${describeAttempts([result])}`);

      assert.equal(result.status, 200, result.error);
      assert.ok(result.delivered);
      assert.equal(result.settlement?.success, true);
      assert.equal(result.merchantDelta, PRICE_ATOMIC);
      assert.equal(result.payerDelta, -PRICE_ATOMIC);
      assert.equal(echo.runs.count - runsBefore, 1);
      const transactions = await settlerTransactions(clients.publicClient, settlers, chain.usdc, fromBlock);
      const settledIn = transactions.find((tx) => tx.hash.toLowerCase() === result.settlement?.transaction.toLowerCase());
      assert.ok(settledIn?.authorizationsUsed.has(wallet.address), 'the receipt holds USDC\'s AuthorizationUsed for the wallet');
    });
  });
}
