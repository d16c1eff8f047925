// Paid calls end to end: N payers, each a loop around the official client (@x402/fetch over
// x402Client + the exact EVM scheme), for a fixed time. Every call is bounded by a timeout; calls
// started before the deadline are awaited, and the rate is taken over the whole time until the last one ends.
import { x402Client } from '@x402/core/client';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import type { Network } from '@x402/core/types';
import { toClientEvmSigner } from '@x402/evm';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import { privateKeyToAccount } from 'viem/accounts';
import type { DevChain } from './chain.ts';
import type { Payer } from './payers.ts';

export interface PaidResult {
  target: string;
  payers: number;
  seconds: number;
  calls: number;
  succeeded: number;
  failed: number;
  paidCallsPerSecond: number;
  failurePercent: number;
  /** Latency of successful calls as the client sees it: 402 round trip + signing + paid round trip. */
  latencyMs: { p50: number; p99: number; max: number };
  /** Latency over all calls, failures included. */
  allLatencyMs: { p50: number; p99: number };
  /** Failure reasons (status + x402 reason, or the thrown error) and how often each occurred. */
  failures: Record<string, number>;
  /** Per failure reason, the detail messages the server gave (shortened) and how often each occurred. */
  failureDetails: Record<string, Record<string, number>>;
}

type Outcome = { ok: true } | { ok: false; reason: string; detail?: string };

export function payingFetch(devChain: DevChain, payer: Payer): typeof fetch {
  const network = devChain.network as Network;
  const client = new x402Client();
  client.register(network, new ExactEvmScheme(toClientEvmSigner(privateKeyToAccount(payer.privateKey))));
  // The official client only pays in assets on its built-in list; the local USDC must be allowed explicitly.
  client.setSpendControls({ allowedAssets: [{ network, asset: devChain.usdc }] });
  return wrapFetchWithPayment(fetch, client);
}

/** viem errors are multi-line; the node's own words follow "Details:". */
function shorten(message: string): string {
  const text = /Details: ([^\n]+)/.exec(message)?.[1] ?? message;
  return text.replace(/0x[0-9a-fA-F]{16,}/g, '0x…').replace(/\s+/g, ' ').slice(0, 160);
}

async function classify(res: Response): Promise<Outcome> {
  await res.arrayBuffer();
  const receipt = res.headers.get('payment-response');
  if (res.status === 200 && receipt) {
    const settled = decodePaymentResponseHeader(receipt);
    return settled.success ? { ok: true } : { ok: false, reason: `200 success=false ${settled.errorReason ?? ''}`.trim() };
  }
  if (res.status === 200) return { ok: false, reason: '200 without PAYMENT-RESPONSE' };
  if (receipt) {
    const settled = decodePaymentResponseHeader(receipt);
    const detail = settled.errorMessage ? shorten(settled.errorMessage) : undefined;
    return { ok: false, reason: `${res.status} ${settled.errorReason ?? 'settle failed'}`, ...(detail ? { detail } : {}) };
  }
  const required = res.headers.get('payment-required');
  if (required) return { ok: false, reason: `${res.status} ${decodePaymentRequiredHeader(required).error ?? 'payment required'}` };
  return { ok: false, reason: String(res.status) };
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** Unmeasured paid calls per app before its first measured run. */
export const PAID_WARMUP_CALLS = 3;

/** A few sequential paid calls, not counted: warms JIT, connection pools and the server's caches. */
export async function warmUpPaid(url: string, devChain: DevChain, payer: Payer, calls: number): Promise<string[]> {
  const pay = payingFetch(devChain, payer);
  const problems: string[] = [];
  for (let i = 0; i < calls; i++) {
    try {
      const outcome = await classify(await pay(url, { signal: AbortSignal.timeout(20_000) }));
      if (!outcome.ok) problems.push(outcome.reason);
    } catch (error) {
      problems.push(shorten(error instanceof Error ? error.message : String(error)));
    }
  }
  return problems;
}

export async function measurePaid(
  target: string,
  url: string,
  devChain: DevChain,
  payers: readonly Payer[],
  seconds: number,
  callTimeoutMs: number,
  /** The paying fetch of each payer: by default the official client with the exact scheme. */
  fetchOf: (payer: Payer) => typeof fetch = (payer) => payingFetch(devChain, payer),
): Promise<PaidResult> {
  const okLatencies: number[] = [];
  const allLatencies: number[] = [];
  const failures: Record<string, number> = {};
  const failureDetails: Record<string, Record<string, number>> = {};
  const start = performance.now();
  const deadline = start + seconds * 1000;

  const loop = async (payer: Payer) => {
    const pay = fetchOf(payer);
    while (performance.now() < deadline) {
      const t0 = performance.now();
      let outcome: Outcome;
      try {
        outcome = await classify(await pay(url, { signal: AbortSignal.timeout(callTimeoutMs) }));
      } catch (error) {
        const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
        outcome = { ok: false, reason: timedOut ? `timeout after ${callTimeoutMs} ms` : `threw: ${shorten(error instanceof Error ? error.message : String(error))}` };
      }
      const ms = performance.now() - t0;
      allLatencies.push(ms);
      if (outcome.ok) okLatencies.push(ms);
      else {
        failures[outcome.reason] = (failures[outcome.reason] ?? 0) + 1;
        if (outcome.detail) {
          const details = (failureDetails[outcome.reason] ??= {});
          details[outcome.detail] = (details[outcome.detail] ?? 0) + 1;
        }
      }
    }
  };
  await Promise.all(payers.map(loop));

  const elapsed = (performance.now() - start) / 1000;
  okLatencies.sort((a, b) => a - b);
  allLatencies.sort((a, b) => a - b);
  const calls = allLatencies.length;
  const succeeded = okLatencies.length;
  return {
    target,
    payers: payers.length,
    seconds: elapsed,
    calls,
    succeeded,
    failed: calls - succeeded,
    paidCallsPerSecond: succeeded / elapsed,
    failurePercent: calls === 0 ? 0 : (100 * (calls - succeeded)) / calls,
    latencyMs: { p50: percentile(okLatencies, 50), p99: percentile(okLatencies, 99), max: okLatencies.at(-1) ?? Number.NaN },
    allLatencyMs: { p50: percentile(allLatencies, 50), p99: percentile(allLatencies, 99) },
    failures,
    failureDetails,
  };
}
