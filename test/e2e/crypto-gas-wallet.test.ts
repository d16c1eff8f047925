// get_gas_estimate and get_wallet_portfolio paid for end to end against anvil standing in for Base
// (and Base Sepolia): every figure checked against what the world planted or what the chain itself
// answers, faults of the RPC node never charged.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { createPublicClient, formatGwei, http, serializeTransaction } from 'viem';
import type { CryptoWorld } from '../support/crypto-world.ts';
import { BASE_RPC_PATH, startCryptoWorld } from '../support/crypto-world.ts';
import type { TestGateway } from '../support/gateway-harness.ts';
import { assertNotCharged, payFor, withQuery } from '../support/paid-call.ts';

let crypto: CryptoWorld;
let t: TestGateway;
before(async () => {
  crypto = await startCryptoWorld({ sepolia: true });
  t = await crypto.gateway();
});
after(async () => {
  await crypto?.close();
});
beforeEach(() => crypto.restore());

interface Cost {
  wei: string;
  eth: string;
  usd: string | null;
}
type Speeds = Record<'slow' | 'normal' | 'fast', Cost | null>;

describe('get_gas_estimate', () => {
  test('priority fees are the medians of the fee history percentiles, costs add the oracle\'s L1 fee; settled at 0.002', async () => {
    const call = await payFor(t, '/api/crypto/gas');
    assert.equal(call.status, 200, JSON.stringify(call.body));
    assert.equal(call.settled, true);
    assert.equal(call.spent, 2000n);
    const body = call.body as {
      block: { number: number };
      baseFee: { nextBlockGwei: string };
      priorityFees: Record<'slow' | 'normal' | 'fast', { percentile: number; gwei: string }> & { blocksWithTransactions: number };
      l1DataFee: { available: boolean };
      ethUsd: { usd: string; stale: boolean };
      costs: Record<'ethTransfer' | 'erc20Transfer' | 'swap', Speeds & { gasUnits: number | null; l1DataFee: Cost | null }>;
    };
    // What the chain says, read independently at the same block.
    const client = createPublicClient({ transport: http(crypto.world.rpcUrl) });
    const history = await client.getFeeHistory({ blockCount: 20, blockNumber: BigInt(body.block.number), rewardPercentiles: [25, 50, 90] });
    const medianOf = (column: number) => {
      const values = history.reward!.map((row) => row[column]!).sort((a, b) => (a < b ? -1 : 1));
      return (values[9]! + values[10]!) / 2n;
    };
    assert.equal(body.priorityFees.slow.gwei, formatGwei(medianOf(0)));
    assert.equal(body.priorityFees.normal.gwei, formatGwei(medianOf(1)));
    assert.equal(body.priorityFees.fast.gwei, formatGwei(medianOf(2)));
    // The planted spread: 0.01 / 0.1 / 2 gwei at the 25th / 50th / 90th gas-weighted percentile.
    assert.deepEqual([body.priorityFees.slow.gwei, body.priorityFees.normal.gwei, body.priorityFees.fast.gwei], ['0.01', '0.1', '2']);
    assert.equal(body.baseFee.nextBlockGwei, formatGwei(history.baseFeePerGas.at(-1)!));
    assert.equal(body.ethUsd.usd, '3000');
    assert.equal(body.ethUsd.stale, false);

    const transfer = body.costs.ethTransfer;
    assert.equal(transfer.gasUnits, 21000);
    // The stand-in oracle charges 50,000,000 wei + 1,000,000 wei per byte of the serialized transaction.
    const next = history.baseFeePerGas.at(-1)!;
    const serialized = serializeTransaction({
      chainId: 8453, type: 'eip1559', nonce: 100, to: '0x0000000000000000000000000000000000000b0b', value: 10n ** 16n, data: '0x',
      gas: 21_000n, maxFeePerGas: 2n * next + medianOf(1), maxPriorityFeePerGas: medianOf(1),
    });
    const l1Fee = 50_000_000n + 1_000_000n * BigInt((serialized.length - 2) / 2);
    assert.equal(transfer.l1DataFee?.wei, l1Fee.toString());
    const fastWei = 21_000n * (next + medianOf(2)) + l1Fee;
    assert.equal(transfer.fast?.wei, fastWei.toString());
    // USD at 3,000 per ETH, truncated to 6 decimals.
    assert.equal(transfer.fast?.usd, (Number((fastWei * 3000n * 10n ** 6n) / 10n ** 18n) / 1e6).toString());
    // The ERC-20 transfer and the swap are measured on the chain: more than a plain transfer.
    assert.ok(body.costs.erc20Transfer.gasUnits! > 21_000 && body.costs.erc20Transfer.gasUnits! < 100_000);
    assert.ok(body.costs.swap.gasUnits! > body.costs.erc20Transfer.gasUnits!);
    assert.ok(BigInt(body.costs.swap.slow!.wei) < BigInt(body.costs.swap.fast!.wei));
  });

  test('a stale feed is flagged', async () => {
    const head = await createPublicClient({ transport: http(crypto.world.rpcUrl) }).getBlock();
    await crypto.world.setEthUsd(310_000_000_000n, head.timestamp - 7_200n);
    try {
      const call = await payFor(t, '/api/crypto/gas');
      assert.equal(call.status, 200, JSON.stringify(call.body));
      const ethUsd = call.body.ethUsd as { usd: string; stale: boolean; ageSeconds: number };
      assert.equal(ethUsd.usd, '3100');
      assert.equal(ethUsd.stale, true);
      assert.ok(ethUsd.ageSeconds >= 7_200);
    } finally {
      await crypto.world.setEthUsd(300_000_000_000n);
    }
  });

  test('the RPC node failing is a 502 or 503 naming it, never charged', async () => {
    crypto.dex.on(BASE_RPC_PATH, { status: 500, body: 'Internal Server Error' }, 'POST');
    const failed = await payFor(t, '/api/crypto/gas');
    assert.equal(failed.status, 502, JSON.stringify(failed.body));
    assert.match(String(failed.body.message), /^Base RPC: /);
    assertNotCharged(failed);
    crypto.dex.on(BASE_RPC_PATH, { reset: true }, 'POST');
    const reset = await payFor(t, '/api/crypto/gas');
    assert.equal(reset.status, 503, JSON.stringify(reset.body));
    assertNotCharged(reset);
  });
});

describe('RPC answers that are not answers', () => {
  test('a rate limit inside a 200 (JSON-RPC error -32005) is a 503; a body without result or error a 502; no answer in time a 504; none charged', async () => {
    const address = crypto.world.wallets.eoa.address;
    const cases = [
      { answer: { status: 200, headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"error":{"code":-32005,"message":"limit exceeded"}}' }, status: 503 },
      { answer: { status: 200, headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1}' }, status: 502 },
      { answer: { status: 200, headers: { 'content-type': 'text/html' }, body: '<html>maintenance</html>' }, status: 502 },
      { answer: { status: 200, headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"result":"0x1"}', delayMs: 3_500 }, status: 504 },
    ];
    for (const { answer, status } of cases) {
      crypto.dex.on(BASE_RPC_PATH, answer, 'POST');
      const call = await payFor(t, withQuery('/api/crypto/wallet', { address }));
      assert.equal(call.status, status, `${answer.body}: ${JSON.stringify(call.body)}`);
      assert.match(String(call.body.message), /^Base RPC: /);
      assertNotCharged(call);
    }
  });
});

describe('get_gas_estimate on a chain without a GasPriceOracle', () => {
  test('says so, and prices L2 execution only', async () => {
    const bare = await startCryptoWorld({ gasPriceOracle: false });
    try {
      const gateway = await bare.gateway();
      const call = await payFor(gateway, '/api/crypto/gas');
      assert.equal(call.status, 200, JSON.stringify(call.body));
      const l1 = call.body.l1DataFee as { available: boolean; note: string };
      assert.equal(l1.available, false);
      assert.match(l1.note, /no GasPriceOracle/);
      const costs = call.body.costs as Record<string, { l1DataFee: unknown }>;
      assert.equal(costs.ethTransfer!.l1DataFee, null);
    } finally {
      await bare.close();
    }
  });
});

describe('get_wallet_portfolio', () => {
  test('the planted account: exact balances, nonce, valuation at the feed; settled at 0.005', async () => {
    const { eoa } = crypto.world.wallets;
    const call = await payFor(t, withQuery('/api/crypto/wallet', { address: eoa.address.toLowerCase() }));
    assert.equal(call.status, 200, JSON.stringify(call.body));
    assert.equal(call.spent, 5000n);
    const body = call.body as {
      address: string; network: string; transactionCount: number; account: { kind: string };
      balances: { eth: { amount: string; atomic: string; usd: string }; usdc: { amount: string; atomic: string; usd: string } };
      valuation: { totalUsd: string };
    };
    assert.equal(body.address, eoa.address);
    assert.equal(body.network, 'base');
    assert.equal(body.transactionCount, 3);
    assert.equal(body.account.kind, 'account');
    assert.deepEqual([body.balances.eth.amount, body.balances.eth.atomic, body.balances.eth.usd], ['1.5', '1500000000000000000', '4500']);
    assert.deepEqual([body.balances.usdc.amount, body.balances.usdc.atomic, body.balances.usdc.usd], ['1234.56', '1234560000', '1234.56']);
    assert.equal(body.valuation.totalUsd, '5734.56');
  });

  test('a contract holding funds is reported as one', async () => {
    const call = await payFor(t, withQuery('/api/crypto/wallet', { address: crypto.world.wallets.smartWallet.address }));
    assert.equal(call.status, 200, JSON.stringify(call.body));
    assert.equal((call.body.account as { kind: string }).kind, 'contract');
    assert.equal((call.body.valuation as { totalUsd: string }).totalUsd, '6010');
  });

  test('sepolia reads Base Sepolia, whose assets have no market value', async () => {
    const { account } = crypto.sepolia!;
    const call = await payFor(t, withQuery('/api/crypto/wallet', { address: account.address, network: 'sepolia' }));
    assert.equal(call.status, 200, JSON.stringify(call.body));
    assert.equal(call.body.chainId, 84532);
    const balances = call.body.balances as { eth: { amount: string }; usdc: { amount: string; usd: null } };
    assert.equal(balances.eth.amount, '0.25');
    assert.equal(balances.usdc.amount, '20');
    assert.equal((call.body.valuation as { totalUsd: null }).totalUsd, null);
  });

  test('bad input is refused before payment', async () => {
    const queries: Record<string, string>[] = [{ address: '0x123' }, { address: crypto.world.wallets.eoa.address, network: 'goerli' }];
    for (const query of queries) {
      const response = await fetch(`${t.baseUrl}${withQuery('/api/crypto/wallet', query)}`);
      assert.equal(response.status, 400, JSON.stringify(query));
    }
  });
});
