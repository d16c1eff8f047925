// Any x402 v2 facilitator over HTTP (/verify, /settle, /supported), through @x402/core's client.
import { HTTPFacilitatorClient } from '@x402/core/server';
import type { PaymentPayload, PaymentRequirements, SettleResponse, SupportedResponse, VerifyResponse } from '@x402/core/types';
import type { Facilitator } from './facilitator.ts';
import { SETTLEMENT_PENDING } from './facilitator.ts';

export class RemoteFacilitator implements Facilitator {
  readonly kind = 'remote';
  private readonly client: HTTPFacilitatorClient;

  constructor(readonly url: string, timeoutMs: number) {
    this.client = new HTTPFacilitatorClient({ url, timeoutMs });
  }

  async verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse> {
    try {
      return await this.client.verify(payload, requirements);
    } catch (error) {
      return { isValid: false, invalidReason: 'unexpected_verify_error', invalidMessage: `facilitator ${this.url}: ${message(error)}` };
    }
  }

  async settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse> {
    try {
      return await this.client.settle(payload, requirements);
    } catch (error) {
      // A timeout or a lost answer says nothing about whether the money moved.
      return {
        success: false,
        errorReason: SETTLEMENT_PENDING,
        errorMessage: `facilitator ${this.url} gave no usable answer: ${message(error)}`,
        transaction: '',
        network: requirements.network,
      };
    }
  }

  supported(): Promise<SupportedResponse> {
    return this.client.getSupported();
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
