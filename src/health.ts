// GET /health: is this gateway able to take and settle payments right now?
import type { PaymentLedger } from './payments/ledger/payment-ledger.ts';
import type { PaymentNetwork } from './payments/networks.ts';
import type { ProviderHealth } from './upstream/provider-health.ts';

export interface HealthReport {
  status: 'ok' | 'degraded';
  version: string;
  network: { name: string; id: string; usdc: string; payTo: string };
  chain: { reachable: boolean; blockNumber?: string; error?: string };
  ledger: { reachable: boolean; error?: string };
  facilitator: string;
  /** Each upstream provider: configured or not, last success and failure, counts since start. Informational: a failing provider does not degrade the gateway. */
  providers?: ProviderHealth[];
}

export interface HealthSources {
  version: string;
  network: PaymentNetwork;
  payTo: string;
  facilitator: string;
  ledger: PaymentLedger;
  blockNumber: () => Promise<bigint>;
  providers?: () => ProviderHealth[];
  /** Receives the full error; the public report only says what kind of failure it was (RPC errors can carry URLs with keys). */
  onProblem?: (component: 'chain' | 'ledger', error: unknown) => void;
}

const PROBE_TIMEOUT_MS = 2_000;

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new ProbeTimeout(`no answer within ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS).unref()),
  ]);
}

class ProbeTimeout extends Error {}

function publicReason(error: unknown): string {
  return error instanceof ProbeTimeout ? error.message : 'unreachable (details in the server log)';
}

export async function checkHealth(sources: HealthSources): Promise<HealthReport> {
  const [chain, ledger] = await Promise.all([
    withTimeout(sources.blockNumber()).then(
      (n) => ({ reachable: true, blockNumber: n.toString() }),
      (error: unknown) => {
        sources.onProblem?.('chain', error);
        return { reachable: false, error: publicReason(error) };
      },
    ),
    withTimeout(sources.ledger.ping()).then(
      () => ({ reachable: true }),
      (error: unknown) => {
        sources.onProblem?.('ledger', error);
        return { reachable: false, error: publicReason(error) };
      },
    ),
  ]);
  return {
    status: chain.reachable && ledger.reachable ? 'ok' : 'degraded',
    version: sources.version,
    network: { name: sources.network.name, id: sources.network.caip2, usdc: sources.network.usdc.address, payTo: sources.payTo },
    chain,
    ledger,
    facilitator: sources.facilitator,
    ...(sources.providers ? { providers: sources.providers() } : {}),
  };
}
