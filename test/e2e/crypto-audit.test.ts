// audit_smart_contract paid for end to end against the planted test tokens of the Base world: for
// each, what the audit finds is checked against what was planted (the taxes measured, the honeypot,
// the owner's powers, the proxies followed, the dangerous opcodes); refusals and faults never charged.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { CryptoWorld } from '../support/crypto-world.ts';
import { BASE_RPC_PATH, startCryptoWorld } from '../support/crypto-world.ts';
import type { TestGateway } from '../support/gateway-harness.ts';
import { assertNotCharged, payFor, withQuery } from '../support/paid-call.ts';

let crypto: CryptoWorld;
let t: TestGateway;
before(async () => {
  crypto = await startCryptoWorld();
  t = await crypto.gateway();
});
after(async () => {
  await crypto?.close();
});
beforeEach(() => crypto.restore());

interface Finding { id: string; severity: string; weight: number; evidence: Record<string, unknown> }
interface Report {
  verdict: string;
  score: number | null;
  isContract: boolean;
  findings: Finding[];
  code: { proxy: { kind: string; implementation: string; admin: string | null } | null; implementation: { address: string } | null };
  ownership: { owner: string | null; renounced?: boolean };
  capabilities: { id: string; functions: { signature: string }[] }[];
  simulation: { simulated: boolean; honeypot?: boolean; buy?: { taxPercent: number | null }; sell?: { ok: boolean; taxPercent: number | null; revert: string | null } | null; pool?: { pairAddress: string } } | null;
}

async function audit(address: string): Promise<Report> {
  const call = await payFor(t, withQuery('/api/audit/contract-risk', { address }));
  assert.equal(call.status, 200, JSON.stringify(call.body));
  assert.equal(call.spent, 20_000n);
  return call.body as unknown as Report;
}
const ids = (report: Report) => report.findings.map((f) => f.id).sort();

describe('audit_smart_contract on the planted tokens', () => {
  test('clean token: no taxes, no powers, the pool simulated; settled at 0.020', async () => {
    const report = await audit(crypto.world.tokens.clean);
    assert.equal(report.simulation?.simulated, true);
    assert.equal(report.simulation?.pool?.pairAddress, crypto.world.pairs.clean);
    assert.equal(report.simulation?.buy?.taxPercent, 0);
    assert.equal(report.simulation?.sell?.taxPercent, 0);
    assert.equal(report.simulation?.honeypot, false);
    assert.deepEqual(ids(report), ['no-liquidity-data']);
    assert.equal(report.verdict, 'no red flags found in what could be checked');
    assert.equal(report.score, 95);
  });

  test('honeypot: the sell reverts, high risk', async () => {
    const report = await audit(crypto.world.tokens.honeypot);
    assert.equal(report.simulation?.honeypot, true);
    assert.equal(report.simulation?.sell?.ok, false);
    assert.match(String(report.simulation?.sell?.revert), /TRANSFER_FROM_FAILED/);
    assert.ok(ids(report).includes('honeypot'));
    assert.equal(report.verdict, 'high risk');
  });

  test('fee token: a 3% buy tax and a 7% sell tax measured', async () => {
    const report = await audit(crypto.world.tokens.fee);
    assert.equal(report.simulation?.buy?.taxPercent, 3);
    // Measured against the router's quote for the full amount: the pool's curve makes 7% of the
    // tokens cost a little under 7% of the ETH out (6.99).
    assert.ok(Math.abs(report.simulation!.sell!.taxPercent! - 7) <= 0.1, String(report.simulation?.sell?.taxPercent));
    assert.ok(ids(report).includes('buy-tax') && ids(report).includes('sell-tax'));
  });

  test('owner powers: mint, pause, blacklist, a fee setter and a max-transaction limit, owner held', async () => {
    const report = await audit(crypto.world.tokens.ownerPowers);
    const found = report.capabilities.map((c) => c.id).sort();
    for (const id of ['mint', 'pause', 'blacklist', 'fees', 'limits', 'ownership']) assert.ok(found.includes(id), id);
    assert.deepEqual(report.capabilities.find((c) => c.id === 'fees')!.functions.map((f) => f.signature), ['setTaxFee(uint256)']);
    assert.equal(report.ownership.renounced, false);
    for (const id of ['mint', 'pause', 'blacklist', 'fees', 'limits', 'owner']) assert.ok(ids(report).includes(id), id);
    assert.equal(report.simulation?.buy?.taxPercent, 0);
    // 100 - mint 15 - blacklist 15 - pause 10 - fees 10 - limits 5 - owner 5 - no DexScreener pool 5.
    assert.equal(report.score, 35);
    assert.equal(report.verdict, 'high risk');
  });

  test('EIP-1967 proxy: the implementation followed, the admin reported, upgradeable', async () => {
    const report = await audit(crypto.world.tokens.proxied);
    assert.equal(report.code.proxy?.kind, 'EIP-1967');
    assert.equal(report.code.proxy?.implementation, crypto.world.tokens.proxiedImplementation);
    assert.ok(report.code.proxy?.admin && /^0x[0-9a-fA-F]{40}$/.test(report.code.proxy.admin));
    const upgradeable = report.findings.find((f) => f.id === 'upgradeable')!;
    assert.equal(upgradeable.evidence.slot, '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc');
    // The proxy's own DELEGATECALL forwards calls: not held against it.
    assert.ok(!ids(report).includes('delegatecall'));
    assert.equal(report.simulation?.simulated, true);
  });

  test('EIP-1167 clone: the implementation followed, not upgradeable', async () => {
    const report = await audit(crypto.world.tokens.minimalProxy);
    assert.equal(report.code.proxy?.kind, 'EIP-1167');
    assert.equal(report.code.proxy?.implementation, crypto.world.tokens.clean);
    assert.ok(ids(report).includes('minimal-proxy'));
    assert.ok(!ids(report).includes('upgradeable'));
  });

  test('the dangerous contract: SELFDESTRUCT and DELEGATECALL found, with their offsets', async () => {
    const report = await audit(crypto.world.tokens.dangerous);
    const selfdestruct = report.findings.find((f) => f.id === 'selfdestruct')!;
    const delegatecall = report.findings.find((f) => f.id === 'delegatecall')!;
    assert.ok((selfdestruct.evidence.offsets as number[]).length > 0);
    assert.ok((delegatecall.evidence.offsets as number[]).length > 0);
    assert.equal(report.simulation, null);
  });

  test('USDC at its canonical address: Circle\'s proxy followed, its powers listed', async () => {
    const report = await audit(crypto.world.addresses.usdc);
    assert.equal(report.code.proxy?.kind, 'ZeppelinOS');
    for (const id of ['mint', 'pause', 'blacklist']) assert.ok(report.capabilities.some((c) => c.id === id), id);
    assert.ok(ids(report).includes('upgradeable'));
  });

  test('an account without code is a clear paid answer, not an error', async () => {
    const report = await audit(crypto.world.wallets.eoa.address);
    assert.equal(report.isContract, false);
    assert.equal(report.verdict, 'not a contract');
  });
});

describe('audit_smart_contract refusals and faults', () => {
  test('a bad address or another chain is refused before payment; the RPC down is a free 503', async () => {
    const queries: Record<string, string>[] = [{ address: '0x12' }, { address: crypto.world.tokens.clean, chain: 'solana' }];
    for (const query of queries) {
      const response = await fetch(`${t.baseUrl}${withQuery('/api/audit/contract-risk', query)}`);
      assert.equal(response.status, 400, JSON.stringify(query));
    }
    crypto.dex.on(BASE_RPC_PATH, { reset: true }, 'POST');
    const down = await payFor(t, withQuery('/api/audit/contract-risk', { address: crypto.world.tokens.fee }));
    assert.equal(down.status, 503, JSON.stringify(down.body));
    assertNotCharged(down);
  });
});
