// `npm run bench:channels`: payment channels (x402 batch-settlement) against `exact`, in one run,
// one gateway, one chain, one client loop. Steps:
//  1. toolgate compiled, local mode, as a child (its anvil is the chain), claims every few seconds.
//  2. Fresh payers funded; channels opened through the official client (deposit, then a voucher);
//     one payer pays 105 calls with the client's default deposit (a deposit, then a top-up).
//  3. Server time per call, one call at a time: voucher, unpaid 402, exact (bench/voucher-server-time.ts).
//  4. Load with payments signed ahead: vouchers, then exact (bench/presigned-load.ts), memory sampled.
//  5. Load through the official @x402/fetch client: channels, then exact.
//  6. Gas from receipts, and the cost per call at 10, 100 and 1,000 calls per payer.
//  7. Console, bench/results/channels-latest.json, the generated part of docs/benchmarks.md.
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { toClientEvmSigner } from '@x402/evm';
import { signVoucher } from '@x402/evm/batch-settlement/client';
import { decodePaymentSignatureHeader } from '@x402/core/http';
import { privateKeyToAccount } from 'viem/accounts';
import { PRICE_ATOMIC, ROUTE } from './chain.ts';
import { paidHistogram, gateBetween } from './call-histogram.ts';
import { loadChannelBenchConfig } from './channel-config.ts';
import { channelGas, economics, exactGas, median } from './channel-gas.ts';
import { channelBody, officialChannelClient, openChannel, paymentRequiredOf, presignExact, presignVouchers, type OpenChannel } from './channel-payers.ts';
import { printChannelReport, writeChannelDocs, ECONOMICS, type ChannelBenchResults, type LoadRow } from './channel-report.ts';
import { waitForQuiet, withCpu } from './cpu.ts';
import { groupMemory } from './memory.ts';
import { measurePaid } from './paid-load.ts';
import { freshPayers, fundPayers, type Payer } from './payers.ts';
import { measurePresigned } from './presigned-load.ts';
import { describeMachine, writeJson } from './report.ts';
import { sampleRss } from './rss-sampler.ts';
import { startToolgate, waitForWarmUp } from './toolgate-process.ts';
import { measureVoucherFloor } from './voucher-floor.ts';
import { measureServerTime } from './voucher-server-time.ts';

const RESULTS_FILE = resolve('bench/results/channels-latest.json');
const DOCS_FILE = resolve('docs/benchmarks.md');
const LOG_DIR = resolve('bench/results/logs');
const PRICE = BigInt(PRICE_ATOMIC);
const TOOL = 'generate_hashes_and_uuids';
/** `exact` is signed ahead for at most this many calls a second (it has done ~450/s alone). */
const EXACT_MAX_RATE = 1_000;
/** Calls of the payer on the client's default deposit: one deposit, then a top-up at call 101. */
const DEFAULT_DEPOSIT_CALLS = 105;
const QUIET_PCT = 25;
/** TOOLGATE_CHANNEL_MIN_DEPOSIT_CALLS' default: the gateway refuses smaller deposits. */
const MIN_DEPOSIT_CALLS = 100;

const log = (message: string) => console.log(`[bench:channels ${new Date().toISOString().slice(11, 19)}] ${message}`);

async function inParallel<T, R>(items: readonly T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i] as T);
    }
  }));
  return results;
}

async function unclaimedUsdc(baseUrl: string): Promise<number> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  return Number(/^toolgate_channel_unclaimed_usdc (\S+)$/m.exec(text)?.[1] ?? Number.NaN);
}

async function main(): Promise<void> {
  const config = loadChannelBenchConfig();
  const started = performance.now();
  const machine = describeMachine();
  setTimeout(() => {
    console.error('bench:channels: still running after 15 minutes, giving up');
    process.exit(3);
  }, 15 * 60_000).unref();
  process.once('SIGINT', () => process.exit(130));
  process.once('SIGTERM', () => process.exit(143));
  await mkdir(LOG_DIR, { recursive: true });
  const dataDir = await mkdtemp(join(tmpdir(), 'toolgate-bench-channels-'));

  if (config.toolgateBuild === 'compiled') {
    log('building toolgate (npm run build)');
    const built = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
    if (built.status !== 0) throw new Error(`npm run build failed (${built.status ?? built.signal})`);
  }
  const logFile = join(LOG_DIR, 'toolgate-channels.log');
  log(`starting toolgate (local mode, claims every ${config.claimIntervalSeconds} s; log ${logFile})`);
  const toolgate = await startToolgate(dataDir, logFile, 120_000, config.toolgateBuild, { TOOLGATE_CHANNEL_CLAIM_INTERVAL_S: String(config.claimIntervalSeconds), TOOLGATE_CHANNEL_CLAIM_MIN_USDC: '0' });
  try {
    if (toolgate.routeProblem) throw new Error(toolgate.routeProblem);
    const { devChain } = toolgate;
    const url = `${toolgate.url}${ROUTE}`;
    const pid = toolgate.child.process.pid;
    const benchGroups = pid === undefined ? [] : [pid];
    log((await waitForWarmUp(toolgate, 60_000)) ?? 'no warm-up line within 60 s; measuring anyway');
    const afterWarmUp = groupMemory(pid);

    // 2. Payers.
    const n = config.payers;
    const vouchersPerPayer = Math.ceil((config.maxRate * config.seconds) / n);
    const exactPerPayer = Math.ceil((Math.min(config.maxRate, EXACT_MAX_RATE) * config.seconds) / n);
    const officialCalls = 500;
    const voucherPayers = freshPayers(n);
    const exactPayers = freshPayers(n);
    const officialChannelPayers = config.officialSeconds > 0 ? freshPayers(n) : [];
    const officialExactPayers = config.officialSeconds > 0 ? freshPayers(n) : [];
    const [latencyChannelPayer, latencyExactPayer, defaultDepositPayer] = freshPayers(3) as [Payer, Payer, Payer];
    // A deposit for every voucher signed ahead, never below the gateway's minDeposit (100 calls).
    const covering = (calls: number) => BigInt(Math.max(calls + 5, MIN_DEPOSIT_CALLS)) * PRICE;
    const loadDeposit = covering(vouchersPerPayer);
    const latencyDeposit = covering(config.latencyCalls);
    const officialDeposit = BigInt(officialCalls) * PRICE;
    log(`funding ${voucherPayers.length + exactPayers.length + officialChannelPayers.length + officialExactPayers.length + 3} payers`);
    await fundPayers(devChain, voucherPayers, loadDeposit);
    await fundPayers(devChain, exactPayers, BigInt(exactPerPayer) * PRICE);
    await fundPayers(devChain, [...officialChannelPayers, ...officialExactPayers], officialDeposit + 10n * PRICE);
    await fundPayers(devChain, [latencyChannelPayer], latencyDeposit + 10n * PRICE);
    await fundPayers(devChain, [latencyExactPayer], BigInt(config.latencyCalls) * PRICE);
    await fundPayers(devChain, [defaultDepositPayer], BigInt(2 * DEFAULT_DEPOSIT_CALLS) * PRICE);

    log(`opening ${n + 1} channels through the official client (deposit + first voucher)`);
    const channels = await inParallel(voucherPayers, 8, (p) => openChannel(devChain, url, p, PRICE, loadDeposit));
    const latencyChannel = await openChannel(devChain, url, latencyChannelPayer, PRICE, latencyDeposit);
    const officialClients = new Map<string, typeof fetch>();
    await inParallel(officialChannelPayers, 8, async (p) => {
      const { pay } = officialChannelClient(devChain, p, officialDeposit);
      const first = await pay(url);
      await first.arrayBuffer();
      if (first.status !== 200) throw new Error(`official channel client's deposit: ${first.status}`);
      officialClients.set(p.address, pay);
    });

    log(`one payer, ${DEFAULT_DEPOSIT_CALLS} calls on the client's default deposit`);
    const defaultClient = officialChannelClient(devChain, defaultDepositPayer);
    for (let i = 0; i < DEFAULT_DEPOSIT_CALLS; i++) {
      const r = await defaultClient.pay(url);
      await r.arrayBuffer();
      if (r.status !== 200) throw new Error(`default-deposit payer, call ${i + 1}: ${r.status}`);
    }
    const defaultDeposits = defaultClient.sent.filter((p) => channelBody(p).type === 'deposit').map((p) => ({ amountAtomic: channelBody(p).deposit?.amount ?? '?', atCall: defaultClient.sent.indexOf(p) + 1 }));

    // Vouchers signed ahead, and a check that the native signer gives the SDK's own bytes.
    let t0 = performance.now();
    const voucherHeaders = await inParallel(channels, 1, (c) => presignVouchers(devChain, c, PRICE, vouchersPerPayer));
    const presignSeconds = (performance.now() - t0) / 1000;
    await sameBytesAsSdk(devChain.network, channels[0] as OpenChannel, voucherHeaders[0]?.[0] as string);
    log(`signed ${n * vouchersPerPayer} vouchers ahead in ${presignSeconds.toFixed(1)} s (same bytes as the SDK over viem's signer: checked)`);

    // 3. Server time, one call at a time; and the parts of a voucher's work, each alone.
    const quiet = async () => {
      const { outside } = await waitForQuiet(benchGroups, QUIET_PCT, 5_000);
      if (outside !== undefined && outside >= QUIET_PCT) log(`  the machine is busy (${outside} % of a core outside the bench); measuring anyway`);
    };
    log('the parts of a voucher\'s work, each alone in this process: recovery (JS, native), channel storage on PGlite');
    await quiet();
    const floor = await measureVoucherFloor();
    log(`  recovery JS ${floor.recoverJs.p50} ms, native ${floor.recoverNative.p50} ms; storage get ${floor.storageGet.p50} ms, update ${floor.storageUpdate.p50} ms (p50)`);
    const paymentRequired = await paymentRequiredOf(url);
    const latencyVouchers = await presignVouchers(devChain, latencyChannel, PRICE, config.latencyCalls);
    const exactForLatency = await presignExact(devChain, paymentRequired, latencyExactPayer, Math.min(config.latencyCalls, 100));
    log('server time per call, one at a time: vouchers, unpaid 402s, exact');
    await quiet();
    const serverTime = [
      await measureServerTime('voucher', toolgate.url, ROUTE, latencyVouchers, 200, 'paid'),
      await measureServerTime('unpaid (402, handler not run)', toolgate.url, ROUTE, Array.from({ length: config.latencyCalls }, () => undefined), 402, undefined),
      await measureServerTime('exact (answer waits for its settlement)', toolgate.url, ROUTE, exactForLatency, 200, 'paid'),
    ];
    for (const s of serverTime) log(`  ${s.kind}: gate p50 ${s.gate?.p50 ?? '–'} / p99 ${s.gate?.p99 ?? '–'} ms, round trip p50 ${s.roundTrip.p50} / p99 ${s.roundTrip.p99} ms, failed ${s.failed}`);

    // 4. Load with payments signed ahead.
    const loads: LoadRow[] = [];
    log(`vouchers: ${n} payers, ${config.seconds} s (${vouchersPerPayer} vouchers signed per payer)`);
    await quiet();
    const histBefore = await paidHistogram(toolgate.url, TOOL);
    const stopRss = sampleRss(pid);
    const voucherLoad = await withCpu(pid, benchGroups, () => measurePresigned('channel vouchers, signed ahead', url, voucherHeaders.map((headers) => ({ headers })), config.seconds, true, 15_000, config.coldConnections));
    const rss = stopRss();
    const gateUnderLoad = gateBetween(histBefore, await paidHistogram(toolgate.url, TOOL));
    loads.push({ scheme: 'batch-settlement', client: 'signed ahead', ...voucherLoad.result, cpu: voucherLoad.cpu });
    log(`  ${voucherLoad.result.perSecond.toFixed(0)} calls/s, failed ${voucherLoad.result.failed}, p50 ${voucherLoad.result.latencyMs.p50.toFixed(1)} ms; gate mean ${gateUnderLoad.meanMs.toFixed(2)} ms; RSS ${rss.firstThirdMiB} → ${rss.lastThirdMiB} MiB`);

    t0 = performance.now();
    const exactHeaders = await inParallel(exactPayers, 1, (p) => presignExact(devChain, paymentRequired, p, exactPerPayer));
    log(`exact: ${n} payers, ${config.seconds} s (${exactPerPayer} payments signed per payer in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    await quiet();
    const exactLoad = await withCpu(pid, benchGroups, () => measurePresigned('exact, signed ahead', url, exactHeaders.map((headers) => ({ headers })), config.seconds, false));
    loads.push({ scheme: 'exact', client: 'signed ahead', ...exactLoad.result, cpu: exactLoad.cpu });
    log(`  ${exactLoad.result.perSecond.toFixed(0)} calls/s, failed ${exactLoad.result.failed}, p50 ${exactLoad.result.latencyMs.p50.toFixed(1)} ms`);

    // 5. The official client, 402 round trip and signing in every call.
    if (config.officialSeconds > 0) {
      for (const [scheme, payers] of [['batch-settlement', officialChannelPayers], ['exact', officialExactPayers]] as const) {
        log(`official @x402/fetch client, ${scheme}: ${n} payers, ${config.officialSeconds} s`);
        await quiet();
        const fetchOf = scheme === 'exact' ? undefined : (p: Payer) => officialClients.get(p.address) as typeof fetch;
        const { result, cpu } = await withCpu(pid, benchGroups, () => measurePaid(scheme, url, devChain, payers, config.officialSeconds, 15_000, fetchOf));
        loads.push({
          scheme, client: 'official @x402/fetch', label: scheme, payers: result.payers, seconds: result.seconds, calls: result.calls, succeeded: result.succeeded, failed: result.failed,
          perSecond: result.paidCallsPerSecond, latencyMs: result.latencyMs, failures: result.failures, ranOut: 0, transactions: {}, incidents: [], cpu,
        });
        log(`  ${result.paidCallsPerSecond.toFixed(0)} calls/s, failed ${result.failed}, p50 ${result.latencyMs.p50.toFixed(1)} ms`);
      }
    }
    const memoryAtEnd = groupMemory(pid);

    // 6. Gas. Wait for the claims of what the loads charged (the gateway claims on its interval).
    log(`waiting for the gateway's claims (every ${config.claimIntervalSeconds} s)`);
    const claimDeadline = Date.now() + Math.min(config.claimIntervalSeconds + 30, 90) * 1000;
    while (Date.now() < claimDeadline && (await unclaimedUsdc(toolgate.url)) > 0) await new Promise((r) => setTimeout(r, 1_000));
    const unclaimedAtEnd = await unclaimedUsdc(toolgate.url);
    const gas = await channelGas(devChain);
    const exact = await exactGas(devChain, exactLoad.result.transactions);
    const claimFixed = gas.claimFit?.fixed ?? ECONOMICS.notesClaimFixed;
    const claimPerRow = gas.claimFit?.perRow ?? ECONOMICS.notesClaimPerRow;
    // The deposit the official client made by default sets the calls a deposit covers.
    const depositCalls = Number(BigInt(defaultDeposits[0]?.amountAtomic ?? '0') / PRICE) || ECONOMICS.assumptions.depositCalls;
    const assumptions = { ...ECONOMICS.assumptions, depositCalls };
    const perCall = [10, 100, 1_000].map((calls) =>
      economics(calls, { newDeposit: median(gas.newDeposits), topUp: median(gas.topUps), claimFixed, claimPerRow, settle: median(gas.settles) }, assumptions),
    );

    const results: ChannelBenchResults = {
      machine, config, loadAverage: { atStart: machine.loadAverageAtStart, atEnd: Number((loadavg()[0] ?? 0).toFixed(2)) },
      presign: { vouchers: n * vouchersPerPayer, seconds: presignSeconds },
      floor, serverTime, loads, gateUnderLoad, rss, memory: { afterWarmUp, atEnd: memoryAtEnd },
      defaultDeposits, gas, exactGas: exact, perCall, assumptions, unclaimedAtEnd,
      totalSeconds: (performance.now() - started) / 1000,
    };
    printChannelReport(results);
    await writeJson(RESULTS_FILE, results);
    if (config.writeDocs) await writeChannelDocs(DOCS_FILE, results);
    console.log(`\nWrote ${RESULTS_FILE}${config.writeDocs ? ` and ${DOCS_FILE}` : ''}`);
  } finally {
    await toolgate.child.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The first voucher signed ahead carries the bytes the SDK's signVoucher makes over viem's own signer. */
async function sameBytesAsSdk(network: string, channel: OpenChannel, header: string): Promise<void> {
  const ours = channelBody(decodePaymentSignatureHeader(header)).voucher;
  const sdk = await signVoucher(toClientEvmSigner(privateKeyToAccount(channel.payer.privateKey)), channel.channelId, ours.maxClaimableAmount, network);
  if (sdk.signature !== ours.signature) throw new Error(`voucher signed ahead ${ours.signature} differs from the SDK's ${sdk.signature}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error('bench:channels failed:', error);
    process.exit(1);
  },
);
