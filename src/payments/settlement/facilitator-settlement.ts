// Settlement through a remote x402 facilitator: one /settle per payment, its answer recorded.
import type { PaymentPayload, PaymentRequirements, SettleResponse } from '@x402/core/types';
import { SETTLEMENT_PENDING } from '../facilitator/facilitator.ts';
import type { PaymentLedger } from '../ledger/payment-ledger.ts';
import type { Settlement, SettlementRequest } from './settlement.ts';

export interface SettlingFacilitator {
  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse>;
}

export class FacilitatorSettlement implements Settlement {
  readonly mode = 'confirmed';
  readonly marksSettling = false;
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly facilitator: SettlingFacilitator, private readonly ledger: PaymentLedger) {}

  settle(request: SettlementRequest): Promise<SettleResponse> {
    const settling = this.settleAndRecord(request);
    this.inFlight.add(settling);
    void settling.finally(() => this.inFlight.delete(settling));
    return settling;
  }

  private async settleAndRecord({ paymentId, payload, requirements }: SettlementRequest): Promise<SettleResponse> {
    const response = await this.facilitator.settle(payload, requirements);
    const txHash = response.transaction ? { txHash: response.transaction } : {};
    if (response.success) {
      await this.ledger.recordOutcomes([{ id: paymentId, state: 'settled', ...txHash }]);
    } else {
      const state = response.errorReason === SETTLEMENT_PENDING ? 'pending' : 'failed';
      await this.ledger.recordOutcomes([{ id: paymentId, state, ...txHash, error: `${response.errorReason ?? 'settlement_failed'}: ${response.errorMessage ?? ''}` }]);
    }
    return response;
  }

  async drain(timeoutMs: number): Promise<void> {
    await Promise.race([Promise.allSettled([...this.inFlight]), new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
  }
}
