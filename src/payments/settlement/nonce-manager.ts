// Numbers the transactions of one settler key itself, one send at a time. Concurrent settlements
// from a single key otherwise collide on the account nonce ("nonce too low", "replacement
// transaction underpriced"). Only the send is serialised; receipts are awaited concurrently.
import type { Hex } from 'viem';

export class NonceManager {
  private tail: Promise<unknown> = Promise.resolve();
  private nextNonce: number | undefined;

  constructor(private readonly pendingNonce: () => Promise<number>) {}

  /** Runs `submit` with the next nonce; the nonce is spent only if `submit` resolves. */
  send<T extends { hash: Hex }>(submit: (nonce: number) => Promise<T>): Promise<T> {
    const run = async (): Promise<T> => {
      this.nextNonce ??= await this.pendingNonce();
      try {
        const sent = await submit(this.nextNonce);
        this.nextNonce += 1;
        return sent;
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

  /** Forget the count (a transaction was dropped or timed out): the next send asks the node. */
  reset(): void {
    this.nextNonce = undefined;
  }
}
