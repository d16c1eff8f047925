// GET /health: is this gateway able to take and settle payments right now?
import type { PaymentLedger } from './payments/ledger/payment-ledger.ts';
import type { PaymentNetwork } from './payments/networks.ts';

export interface HealthReport {
  status: 'ok' | 'degraded';
  version: string;
  network: { name: string; id: string; usdc: string; payTo: string };
  chain: { reachable: boolean; blockNumber?: string; error?: string };
  ledger: { reachable: boolean; error?: string };
  facilitator: string;
}

export interface HealthSources {
  version: string;
  network: PaymentNetwork;
  payTo: string;
  facilitator: string;
  ledger: PaymentLedger;
  blockNumber: () => Promise<bigint>;
}

const PROBE_TIMEOUT_MS = 2_000;

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS).unref()),
  ]);
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function checkHealth(sources: HealthSources): Promise<HealthReport> {
  const [chain, ledger] = await Promise.all([
    withTimeout(sources.blockNumber()).then(
      (n) => ({ reachable: true, blockNumber: n.toString() }),
      (error: unknown) => ({ reachable: false, error: reason(error) }),
    ),
    withTimeout(sources.ledger.ping()).then(
      () => ({ reachable: true }),
      (error: unknown) => ({ reachable: false, error: reason(error) }),
    ),
  ]);
  return {
    status: chain.reachable && ledger.reachable ? 'ok' : 'degraded',
    version: sources.version,
    network: { name: sources.network.name, id: sources.network.caip2, usdc: sources.network.usdc.address, payTo: sources.payTo },
    chain,
    ledger,
    facilitator: sources.facilitator,
  };
}
