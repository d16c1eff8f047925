// The local spend record: every payment this machine signed, per UTC day, in one JSON file that
// concurrent toolgate processes update under a lock (file-lock.ts). A payment is reserved before
// it is signed, confirmed when the gateway settled it, released when the gateway did not charge,
// and kept (as "unknown") when the outcome cannot be known: it counts against the day's budget.
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { withFileLock } from './file-lock.ts';

export type SpendState = 'reserved' | 'spent' | 'unknown';

export interface SpendEntry {
  id: string;
  /** UTC day the payment was reserved, YYYY-MM-DD. */
  day: string;
  at: string;
  network: string;
  tool: string;
  payer: string;
  /** Atomic USDC, decimal string. */
  amount: string;
  state: SpendState;
  transaction?: string;
  /**
   * A payment channel (x402 batch-settlement): on a `deposit` entry the amount is the money put
   * aside in the channel (what is left of it after a refund, with `refunded` the part given back);
   * a `voucher` entry is a call paid from a deposit: amount 0 (nothing new), `charged` its price.
   */
  channel?: { id: string; kind: 'deposit' | 'voucher'; charged?: string; refunded?: string };
}

interface SpendFile {
  version: 1;
  entries: SpendEntry[];
}

export interface SpendRequest {
  network: string;
  tool: string;
  payer: string;
  amount: bigint;
  channel?: SpendEntry['channel'];
}

/** Days of history kept in the file; older entries are dropped when it is next written. */
const KEEP_DAYS = 31;

export const utcDay = (date: Date): string => date.toISOString().slice(0, 10);

export class SpendRecord {
  constructor(
    readonly path: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private async read(): Promise<SpendFile> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, entries: [] };
      throw error;
    }
    try {
      const parsed = JSON.parse(text) as SpendFile;
      if (parsed.version !== 1 || !Array.isArray(parsed.entries)) throw new Error('unexpected shape');
      return parsed;
    } catch (error) {
      throw new Error(`the spend record ${this.path} is damaged (${(error as Error).message}); move it away to start a new one`);
    }
  }

  private async write(file: SpendFile): Promise<void> {
    const oldest = utcDay(new Date(this.now().getTime() - KEEP_DAYS * 86_400_000));
    file.entries = file.entries.filter((e) => e.day >= oldest);
    const temporary = `${this.path}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify(file, null, 1)}\n`, { mode: 0o600 });
    await rename(temporary, this.path);
  }

  private async update<T>(change: (file: SpendFile) => T): Promise<T> {
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    return withFileLock(`${this.path}.lock`, async () => {
      const file = await this.read();
      const result = change(file);
      await this.write(file);
      return result;
    });
  }

  private static spentOn(file: SpendFile, day: string, network: string): bigint {
    return file.entries.filter((e) => e.day === day && e.network === network).reduce((sum, e) => sum + BigInt(e.amount), 0n);
  }

  /** What today (UTC) already holds for `network`: spent, reserved and unknown payments. */
  async spentToday(network: string): Promise<bigint> {
    return SpendRecord.spentOn(await this.read(), utcDay(this.now()), network);
  }

  async entries(): Promise<SpendEntry[]> {
    return (await this.read()).entries;
  }

  /**
   * Reserves `amount` for today if today's total stays within `dailyLimit` (no limit: always).
   * Returns the entry's id, or the amount already held today when the limit would be passed.
   */
  async reserve(request: SpendRequest, dailyLimit: bigint | undefined): Promise<{ id: string } | { refused: true; spent: bigint }> {
    return this.update((file) => {
      const now = this.now();
      const day = utcDay(now);
      const spent = SpendRecord.spentOn(file, day, request.network);
      if (dailyLimit !== undefined && spent + request.amount > dailyLimit) return { refused: true as const, spent };
      const id = randomUUID();
      file.entries.push({
        id, day, at: now.toISOString(), network: request.network, tool: request.tool, payer: request.payer, amount: request.amount.toString(), state: 'reserved',
        ...(request.channel ? { channel: request.channel } : {}),
      });
      return { id };
    });
  }

  /** A call paid by voucher from a channel's deposit: logged, adding nothing to the day's total. */
  async voucher(request: Omit<SpendRequest, 'amount' | 'channel'> & { channel: string; charged: bigint }): Promise<void> {
    await this.update((file) => {
      const now = this.now();
      file.entries.push({
        id: randomUUID(), day: utcDay(now), at: now.toISOString(), network: request.network, tool: request.tool, payer: request.payer, amount: '0', state: 'spent',
        channel: { id: request.channel, kind: 'voucher', charged: request.charged.toString() },
      });
    });
  }

  /**
   * A channel's unspent money came back (a refund): its deposit entries shrink by `refunded`,
   * newest first, so the budget of the day each deposit was made gets that part back.
   * Returns what was given back (at most what the entries still hold).
   */
  async refundChannel(channelId: string, refunded: bigint): Promise<bigint> {
    return this.update((file) => {
      let left = refunded;
      const deposits = file.entries.filter((e) => e.channel?.kind === 'deposit' && e.channel.id.toLowerCase() === channelId.toLowerCase() && e.state !== 'reserved');
      for (const entry of deposits.reverse()) {
        if (left === 0n) break;
        const amount = BigInt(entry.amount);
        const back = amount < left ? amount : left;
        entry.amount = (amount - back).toString();
        entry.channel = { ...entry.channel!, refunded: (BigInt(entry.channel!.refunded ?? '0') + back).toString() };
        left -= back;
      }
      return refunded - left;
    });
  }

  async settle(id: string, state: 'spent' | 'unknown', transaction?: string): Promise<void> {
    await this.update((file) => {
      const entry = file.entries.find((e) => e.id === id);
      if (!entry) return;
      entry.state = state;
      if (transaction) entry.transaction = transaction;
    });
  }

  async release(id: string): Promise<void> {
    await this.update((file) => {
      file.entries = file.entries.filter((e) => e.id !== id);
    });
  }
}
