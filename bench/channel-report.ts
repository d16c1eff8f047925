// Results of `npm run bench:channels`: the console, and the generated part of the "Payment
// channels" section of docs/benchmarks.md (between its markers; the reading outside them is hand-written).
import type { ChannelBenchConfig } from './channel-config.ts';
import type { ChannelGas, Economics, EconomicsAssumptions, ExactGas } from './channel-gas.ts';
import { usdOfGas } from './channel-gas.ts';
import type { GateUnderLoad } from './call-histogram.ts';
import type { CpuUse } from './cpu.ts';
import { writeSection } from './doc-section.ts';
import type { Memory } from './memory.ts';
import type { PresignedResult } from './presigned-load.ts';
import { dec, int, markdownTable, runLine, textTable, type Machine } from './report.ts';
import type { RssSeries } from './rss-sampler.ts';
import type { VoucherFloor } from './voucher-floor.ts';
import type { ServerTime } from './voucher-server-time.ts';

export const ECONOMICS = {
  assumptions: {
    priceUsdc: 0.001,
    depositCalls: 100,
    /** Base's fee floor and the ETH price of the shared notes' economics. */
    gwei: 0.005,
    ethUsd: 2_500,
    rowsPerClaim: 50,
    /** The gateway's default TOOLGATE_CHANNEL_CLAIM_MIN_USDC. */
    claimMinUsdc: 0.05,
    /** A cooperative refund, measured in the shared notes (not in this run). */
    refundGas: 117_445,
  } satisfies EconomicsAssumptions,
  /** The shared notes' claim fit, used when the run's claims all had the same number of rows. */
  notesClaimFixed: 36_600,
  notesClaimPerRow: 23_600,
};

export interface LoadRow extends PresignedResult {
  scheme: 'batch-settlement' | 'exact';
  client: 'signed ahead' | 'official @x402/fetch';
  cpu: CpuUse | undefined;
}

export interface ChannelBenchResults {
  machine: Machine;
  config: ChannelBenchConfig;
  loadAverage: { atStart: number; atEnd: number };
  presign: { vouchers: number; seconds: number };
  floor: VoucherFloor;
  serverTime: ServerTime[];
  loads: LoadRow[];
  gateUnderLoad: GateUnderLoad;
  rss: RssSeries;
  memory: { afterWarmUp: Memory | undefined; atEnd: Memory | undefined };
  defaultDeposits: { amountAtomic: string; atCall: number }[];
  gas: ChannelGas;
  exactGas: ExactGas;
  perCall: Economics[];
  assumptions: EconomicsAssumptions;
  unclaimedAtEnd: number;
  totalSeconds: number;
}

const LOAD_HEAD = ['scheme', 'client', 'payers', 'calls/s', 'p50 ms', 'p99 ms', 'failed', 'ok / calls', 'channel ÷ exact', 'CPU % server / anvil / clients / outside'];
const cpuCell = (c: CpuUse | undefined) => (c ? `${c.server} / ${c.chain} / ${c.harness} / ${c.outside}` : '–');

function loadRows(r: ChannelBenchResults): string[][] {
  return r.loads.map((row) => {
    const exact = r.loads.find((o) => o.scheme === 'exact' && o.client === row.client);
    const vsExact = row.scheme === 'batch-settlement' && exact?.perSecond ? `${dec(row.perSecond / exact.perSecond, 2)}×` : '';
    const failed = row.failed ? `${int(row.failed)} (${Object.entries(row.failures).map(([k, v]) => `${v}× ${k}`).join(', ')})` : '0';
    return [row.scheme, row.client, String(row.payers), dec(row.perSecond), dec(row.latencyMs.p50), dec(row.latencyMs.p99), failed, `${int(row.succeeded)} / ${int(row.calls)}${row.ranOut ? ` (${row.ranOut} ran out)` : ''}`, vsExact, cpuCell(row.cpu)];
  });
}

const TIME_HEAD = ['call', 'calls', 'gate p50 ms', 'gate p99 ms', 'gate mean ms', 'round trip p50 ms', 'round trip p99 ms', 'failed'];
const timeRows = (r: ChannelBenchResults) =>
  r.serverTime.map((s) => [s.kind, String(s.roundTrip.calls), dec(s.gate?.p50 ?? Number.NaN, 2), dec(s.gate?.p99 ?? Number.NaN, 2), dec(s.gate?.mean ?? Number.NaN, 2), dec(s.roundTrip.p50, 2), dec(s.roundTrip.p99, 2), String(s.failed)]);

const FLOOR_HEAD = ['part of a voucher\'s work', 'p50 ms', 'p99 ms', 'times per voucher (SDK / local check)'];
function floorRows(r: ChannelBenchResults): string[][] {
  const f = r.floor;
  return [
    ['signature recovery, viem (pure JS): the SDK\'s local voucher check', dec(f.recoverJs.p50, 3), dec(f.recoverJs.p99, 3), '1 / 0'],
    [`signature recovery, libsecp256k1 (${f.recoverNative.backend}): the gateway's \`exact\` path`, dec(f.recoverNative.p50, 3), dec(f.recoverNative.p99, 3), '0 / 1'],
    ['channel record read, PGlite on disk (`SqlChannelStorage.get`)', dec(f.storageGet.p50, 3), dec(f.storageGet.p99, 3), '1 / 0'],
    ['channel record update, one transaction (`updateChannel`)', dec(f.storageUpdate.p50, 3), dec(f.storageUpdate.p99, 3), '2 / 1'],
  ];
}

/** p50 sums: what the SDK does per voucher, and the issue's floor (one recovery, one ledger write). */
export function floorSums(f: VoucherFloor): { sdkMs: number; floorMs: number } {
  return { sdkMs: f.recoverJs.p50 + f.storageGet.p50 + 2 * f.storageUpdate.p50, floorMs: f.recoverNative.p50 + f.storageUpdate.p50 };
}

function floorLine(r: ChannelBenchResults): string {
  const { sdkMs, floorMs } = floorSums(r.floor);
  return `Per voucher, at p50: the SDK's path (JS recovery + a read + two updates) ${dec(sdkMs, 2)} ms of the main thread, at most ~${int(1000 / sdkMs)} vouchers/s on one core; the gateway's own check alone (\`TOOLGATE_CHANNEL_VOUCHER_CHECK=local\`, the default: native recovery + one charge transaction, which under load it shares with the other charges of its turn) ${dec(floorMs, 2)} ms, ~${int(1000 / floorMs)}/s. The EIP-712 hashing, HTTP and the gate come on top of both.`;
}

const pct = (p: number) => `${dec(p, p < 10 ? 2 : 1)} %`;
const COST_HEAD = ['calls per payer', 'deposits (default size)', 'channel gas per call', 'channel cost, % of price', 'with a refund of the rest', 'exact gas per call', 'exact cost, % of price'];
function costRows(r: ChannelBenchResults): string[][] {
  const a = r.assumptions;
  const exactPct = (100 * usdOfGas(r.exactGas.gasPerPayment, a.gwei, a.ethUsd)) / a.priceUsdc;
  return r.perCall.map((e) => [int(e.callsPerPayer), String(e.deposits), int(e.gasPerCall), pct(e.percentOfPrice), e.withRefund ? `${int(e.withRefund.gasPerCall)} gas, ${pct(e.withRefund.percentOfPrice)}` : '– (nothing left)', int(r.exactGas.gasPerPayment), pct(exactPct)]);
}

/** A set of gas figures as its median, range and count. */
function spread(values: readonly number[]): string {
  if (values.length === 0) return 'none';
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] as number;
  return values.length === 1 ? int(median) : `${int(median)} (median; ${int(sorted[0] as number)}–${int(sorted.at(-1) as number)}, ${values.length} transactions)`;
}

function gasLines(r: ChannelBenchResults): string[] {
  const g = r.gas;
  const claims = g.claims.map((c) => `${c.rows} rows ${int(c.gas)}`).join(' · ') || 'none';
  return [
    `Gas from the run's receipts (L2 execution gas; Base's L1 data fee left out): new channel + deposit ${spread(g.newDeposits)} · top-up ${spread(g.topUps)} · settle ${spread(g.settles)} · claims ${claims}${g.claimFit ? ` → fit ${int(g.claimFit.fixed)} + ${int(g.claimFit.perRow)} × rows` : ' (no fit: one size of claim; the shared notes\' 36.6k + 23.6k × rows used)'}. \`exact\`: ${int(r.exactGas.payments)} payments in ${int(r.exactGas.transactions)} settlement transactions, ${int(r.exactGas.gasPerPayment)} gas each.`,
    `The client's default deposit (official client, gateway's \`minDeposit\`): ${r.defaultDeposits.map((d) => `${Number(d.amountAtomic) / 1e6} USDC at call ${d.atCall}`).join(', ')} (${r.assumptions.depositCalls} calls at 0.001 USDC). USDC still unclaimed when the gas was read: ${r.unclaimedAtEnd}.`,
  ];
}

/** Calls slower than 2 s or failed, per load: how many, how slow, and how many began in the load's first second. */
function incidentLines(r: ChannelBenchResults): string[] {
  return r.loads
    .filter((row) => row.incidents.length > 0)
    .map((row) => {
      const slow = row.incidents.filter((i) => i.what === 'slow');
      const early = row.incidents.filter((i) => i.atS < 1).length;
      const worst = Math.max(...row.incidents.map((i) => i.ms));
      return `${row.scheme}, ${row.client}: ${slow.length} calls over 2 s and ${row.incidents.length - slow.length} failed (slowest ${dec(worst / 1000)} s); ${early} of them were sent in the load's first second.`;
    });
}

function memoryLine(r: ChannelBenchResults): string {
  const s = r.rss.samplesMiB;
  return `toolgate's main process, resident (MiB), every second of the voucher load: ${s.join(', ')}; median of the first third ${r.rss.firstThirdMiB}, of the last third ${r.rss.lastThirdMiB}. After start and warm-up ${r.memory.afterWarmUp?.leaderRssMiB ?? '–'}, at the end of all loads ${r.memory.atEnd?.leaderRssMiB ?? '–'} (peak ${r.memory.atEnd?.leaderPeakMiB ?? '–'}).`;
}

function gateLine(r: ChannelBenchResults): string {
  const g = r.gateUnderLoad;
  return `Under the voucher load (${int(g.calls)} paid calls, from \`toolgate_call_duration_seconds\` on /metrics, whose buckets start at 5 ms): the gate's mean ${dec(g.meanMs, 2)} ms per call; ${dec(g.within5msPct)} % answered within 5 ms, ${dec(g.within10msPct)} % within 10 ms.`;
}

export function printChannelReport(r: ChannelBenchResults): void {
  console.log(`\nPaid load, ${r.config.payers} payers (one call at a time each)`);
  console.log(textTable(LOAD_HEAD, loadRows(r), 2));
  for (const line of incidentLines(r)) console.log(line);
  console.log('\nThe parts of a voucher\'s work, each alone (bench process)');
  console.log(textTable(FLOOR_HEAD, floorRows(r), 1));
  console.log(floorLine(r));
  console.log('\nServer time per call, one call at a time');
  console.log(textTable(TIME_HEAD, timeRows(r), 1));
  console.log(gateLine(r));
  console.log('\nCost per call');
  console.log(textTable(COST_HEAD, costRows(r), 0));
  for (const line of [...gasLines(r), memoryLine(r)]) console.log(line);
  console.log(`Load average (1 min): ${r.loadAverage.atStart} at start, ${r.loadAverage.atEnd} at the end; whole run ${dec(r.totalSeconds, 0)} s`);
}

const BEGIN = '<!-- channel-bench:begin (generated by `npm run bench:channels`; edit outside these markers) -->';
const END = '<!-- channel-bench:end -->';

function section(r: ChannelBenchResults): string {
  const c = r.config;
  const a = r.assumptions;
  return [
    BEGIN,
    runLine(r.machine, r.totalSeconds),
    '',
    `Load average (1 min, \`/proc/loadavg\`): **${r.loadAverage.atStart} at the start, ${r.loadAverage.atEnd} at the end** (2 cores: above ~1 the machine was shared during the run).`,
    '',
    '### Method (channels)',
    '',
    `- One run of \`npm run bench:channels\`: toolgate compiled and started as \`npm run start:prod\` starts it (local mode: its own anvil, Circle's FiatTokenV2_2, the real x402BatchSettlement contracts), with \`TOOLGATE_CHANNEL_CLAIM_INTERVAL_S=${c.claimIntervalSeconds}\` and \`TOOLGATE_CHANNEL_CLAIM_MIN_USDC=0\` so that claims of many sizes happen during the run (their gas is what the cost model is fitted on); every other setting is the default (minDeposit 100 calls, withdraw delay one day). Route \`GET ${'/api/tools/uuid'}\`, 0.001 USDC.`,
    `- **Channels** are opened outside every timed window, each by the official client (\`@x402/fetch\` over an \`x402Client\` with only the official \`BatchSettlementEvmScheme\` client): its first call deposits (receipt awaited), its second sends a voucher. Later vouchers are that payload with the next cumulative amount, signed before the window by the SDK's own \`signVoucher\` over a signer whose curve is libsecp256k1 (the same bytes as viem's, checked each run): ${int(r.presign.vouchers)} vouchers in ${dec(r.presign.seconds)} s.`,
    `- **Signed ahead** rows: ${c.payers} payers, each one request at a time on its own keep-alive connection (\`node:http\`, opened by one unpaid request before the window), ${c.seconds} s. A call counts when the answer is a 200 whose PAYMENT-RESPONSE says \`success: true\`; anything else (\`channel_busy\` included) is a failure, and a refused voucher is sent again. \`exact\` goes through the same loop, its payments (ERC-3009, fresh nonces) signed ahead by the official client's \`ExactEvmScheme\` over the same signer: one round trip per call for both, nothing signed in the window.`,
    c.officialSeconds > 0 ? `- **Official @x402/fetch** rows: ${c.payers} payers, ${c.officialSeconds} s, each call as an agent makes it: the unpaid request, the 402, signing in viem (pure JS), the paid request. Channel payers deposited before the window.` : '- Official-client rows: skipped (BENCH_CHANNEL_OFFICIAL_SECONDS=0).',
    `- **Server time**: one payer, one call at a time, on the gateway before the loads; the gate's own duration of each call (from the request reaching the gate to its answer, the payment's commit included; read from \`GET /dashboard/api/overview\`'s \`recentCalls\` after every 20 calls), and the client's round trip on loopback. Vouchers against unpaid calls of the same route (the gate's 402: input checked, handler not run) and \`exact\` (its answer waits for its batch to be mined).`,
    `- **Gas**: every receipt of the settlement contract's transactions in the run (by their events) and of the \`exact\` settlements the signed-ahead payments named. **Cost per call** for a payer making n calls with the client's default deposit: ⌈n / ${a.depositCalls}⌉ deposits (the first opens the channel, the others top up), a claim row each time the channel owes ${a.claimMinUsdc} USDC (the default claim policy; the rest once it goes idle) in claims of ${a.rowsPerClaim} rows, and a settle per claim; converted at ${a.gwei} gwei (Base's fee floor) and ETH at $${int(a.ethUsd)}; the refund column adds a cooperative refund of what is left (${int(a.refundGas)} gas, from the shared notes). toolgate pays all of it: its channel settler sends deposits, claims and settles.`,
    '',
    `### Paid load, ${c.payers} payers`,
    '',
    markdownTable(LOAD_HEAD, loadRows(r), 2),
    '',
    'CPU % is percent of one core over the window (server: toolgate\'s process group without anvil; clients: the bench process; outside: everything else on the machine).',
    '',
    ...incidentLines(r).flatMap((l) => [l, '']),
    '### Server time per call (one at a time)',
    '',
    markdownTable(TIME_HEAD, timeRows(r), 1),
    '',
    gateLine(r),
    '',
    '### The parts of a voucher\'s work, each alone',
    '',
    'Timed in the bench process, 300 times each, one at a time, between the loads\' setup and the server-time measurement (the gateway idle).',
    '',
    markdownTable(FLOOR_HEAD, floorRows(r), 1),
    '',
    floorLine(r),
    '',
    '### Gas and cost per call',
    '',
    markdownTable(COST_HEAD, costRows(r), 0),
    '',
    ...gasLines(r).flatMap((l) => [l, '']),
    '### Memory under voucher load',
    '',
    memoryLine(r),
    '',
    'Raw results: `bench/results/channels-latest.json`.',
    END,
  ].join('\n');
}

export async function writeChannelDocs(file: string, r: ChannelBenchResults): Promise<void> {
  await writeSection(file, { begin: BEGIN, end: END }, section(r), (s) => `# Benchmarks\n\n## Payment channels\n\n${s}\n`, '## Payment channels');
}
