// Group commit: items submitted in one turn of the event loop, or while a flush runs, are flushed
// together, once that turn's I/O has been handled (setImmediate). Under load one transaction then
// carries many vouchers' charges, and its fixed cost (BEGIN, COMMIT's WAL write; on PGlite, which
// runs on the main thread, also the time every other request waits) is paid once per group. Why a
// turn: PGlite's queries complete in microtasks, so a request can run from its admission to its
// commit without yielding to I/O, and a flush started at once would never find a second item.
export class GroupCommit<Item, Result> {
  private queue: { item: Item; resolve(result: Result): void; reject(error: unknown): void }[] = [];
  private flushing = false;

  /** `flush` gets every waiting item and returns one result per item, in order; a throw fails them all. */
  constructor(private readonly flush: (items: Item[]) => Promise<Result[]>, private readonly maxGroup = 200) {}

  submit(item: Item): Promise<Result> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.flushing) {
        this.flushing = true;
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const group = this.queue.splice(0, this.maxGroup);
        try {
          const results = await this.flush(group.map((waiting) => waiting.item));
          group.forEach((waiting, i) => waiting.resolve(results[i] as Result));
        } catch (error) {
          for (const waiting of group) waiting.reject(error);
        }
      }
    } finally {
      this.flushing = false;
    }
  }
}
