// Sends transactions from one key one at a time, numbering them itself. Concurrent settlements
// from a single settler key otherwise collide on the account nonce ("nonce too low",
// "replacement transaction underpriced") after the tool has already run. Only the send is
// serialised; receipts are awaited concurrently.
import type { Hex } from 'viem';

export class SerialTransactionSender {
  private tail: Promise<unknown> = Promise.resolve();
  private nextNonce: number | undefined;

  constructor(private readonly pendingNonce: () => Promise<number>) {}

  send(submit: (nonce: number) => Promise<Hex>): Promise<Hex> {
    const run = async (): Promise<Hex> => {
      this.nextNonce ??= await this.pendingNonce();
      try {
        const hash = await submit(this.nextNonce);
        this.nextNonce += 1;
        return hash;
      } catch (error) {
        // The node may or may not have taken the transaction: ask it again next time.
        this.nextNonce = undefined;
        throw error;
      }
    };
    const result = this.tail.then(run, run);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
