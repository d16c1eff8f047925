// The payment channels this machine opened (x402 batch-settlement), in one JSON file beside the
// spend record, changed under the same kind of lock: which gateway, network, token and config each
// channel belongs to, what was deposited and refunded. The running amounts (charged so far, the
// balance the client believes) are the official client's own records (FileClientChannelStorage).
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { withFileLock } from './file-lock.ts';

export interface ChannelConfigRecord {
  payer: string;
  payerAuthorizer: string;
  receiver: string;
  receiverAuthorizer: string;
  token: string;
  withdrawDelay: number;
  salt: string;
}

export interface ChannelEntry {
  /** The channel id (bytes32), lowercase. */
  id: string;
  /** The gateway's base URL. */
  gateway: string;
  network: string;
  config: ChannelConfigRecord;
  openedAt: string;
  /** Atomic USDC put in over the channel's life (first deposit and top-ups). */
  deposited: string;
  deposits: { at: string; amount: string; transaction: string }[];
  /** Atomic USDC given back by a cooperative refund. */
  refunded?: string;
  refundTransaction?: string;
  /** Set once nothing is left in it for us (refunded to empty). */
  closedAt?: string;
}

interface BookFile {
  version: 1;
  channels: ChannelEntry[];
}

export class ChannelBook {
  constructor(readonly path: string) {}

  private async read(): Promise<BookFile> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, channels: [] };
      throw error;
    }
    const parsed = JSON.parse(text) as BookFile;
    if (parsed.version !== 1 || !Array.isArray(parsed.channels)) throw new Error(`the channel record ${this.path} is damaged; move it away to start a new one`);
    return parsed;
  }

  private async update<T>(change: (file: BookFile) => T): Promise<T> {
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    return withFileLock(`${this.path}.lock`, async () => {
      const file = await this.read();
      const result = change(file);
      const temporary = `${this.path}.${process.pid}.tmp`;
      await writeFile(temporary, `${JSON.stringify(file, null, 1)}\n`, { mode: 0o600 });
      await rename(temporary, this.path);
      return result;
    });
  }

  async list(): Promise<ChannelEntry[]> {
    return (await this.read()).channels;
  }

  /** A deposit the gateway settled: opens the channel in the book, or adds a top-up to it. */
  async deposited(channel: Omit<ChannelEntry, 'openedAt' | 'deposited' | 'deposits'>, amount: bigint, transaction: string, at = new Date()): Promise<void> {
    await this.update((file) => {
      const id = channel.id.toLowerCase();
      let entry = file.channels.find((c) => c.id === id);
      if (!entry || entry.closedAt) {
        // A channel refunded to empty and deposited into again starts a new life in the book.
        file.channels = file.channels.filter((c) => c.id !== id);
        entry = { ...channel, id, openedAt: at.toISOString(), deposited: '0', deposits: [] };
        file.channels.push(entry);
      }
      entry.deposited = (BigInt(entry.deposited) + amount).toString();
      entry.deposits.push({ at: at.toISOString(), amount: amount.toString(), transaction });
    });
  }

  /** A refund: `closed` when nothing of ours is left in the channel. */
  async refunded(id: string, amount: bigint, transaction: string | undefined, closed: boolean, at = new Date()): Promise<void> {
    await this.update((file) => {
      const entry = file.channels.find((c) => c.id === id.toLowerCase());
      if (!entry) return;
      entry.refunded = (BigInt(entry.refunded ?? '0') + amount).toString();
      if (transaction) entry.refundTransaction = transaction;
      if (closed) entry.closedAt = at.toISOString();
    });
  }
}
