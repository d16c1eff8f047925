// The embedded store run on a thread of its own (pglite-thread.mjs): the same SqlClient, with PGlite's
// work off the main thread, which then only passes statements and rows across. Under voucher load the
// WASM PostgreSQL took a third of the main thread's time; on its own thread it uses the second core.
import { Worker } from 'node:worker_threads';
import type { SqlClient, SqlQueries } from './sql-client.ts';

type Operation =
  | { op: 'query'; sql: string; params: readonly unknown[]; tx?: number }
  | { op: 'exec'; sql: string; tx?: number }
  | { op: 'begin'; tx: number }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'close' };

interface PlainError { name: string; message: string; [field: string]: unknown }
type Reply = { id: number; ok: true; rows?: unknown[] } | { id: number; ok: false; error: PlainError };
type Readiness = { ready: true } | { ready: false; error: PlainError };

/** An error from the database thread, with PostgreSQL's fields (`code`, `constraint`…) as PGlite gives them. */
function revive(plain: PlainError): Error {
  const { name, message, ...fields } = plain;
  return Object.assign(new Error(message), fields, { name });
}

export interface PgliteThreadOptions {
  dataDir?: string;
  postgresqlconf: readonly string[];
}

export async function openPgliteThreadClient(options: PgliteThreadOptions): Promise<SqlClient> {
  // execArgv: [] keeps the parent's flags (--import tsx, --test, --cpu-prof…) out of the thread: it needs none.
  const worker = new Worker(new URL('./pglite-thread.mjs', import.meta.url), {
    workerData: { ...(options.dataDir ? { dataDir: options.dataDir } : {}), postgresqlconf: [...options.postgresqlconf] },
    execArgv: [],
  });
  const pending = new Map<number, { resolve: (reply: Reply & { ok: true }) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let nextTx = 1;
  let gone: Error | undefined;

  const failAll = (error: Error) => {
    gone ??= error;
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
    worker.unref();
  };

  await new Promise<void>((resolve, reject) => {
    const settle = (outcome: Error | undefined) => {
      worker.off('message', onReady).off('error', settle).off('exit', onExit);
      if (outcome) reject(outcome);
      else resolve();
    };
    const onReady = (first: Readiness) => settle(first.ready ? undefined : revive(first.error));
    const onExit = (code: number) => settle(new Error(`the embedded store's thread exited (${code}) before it was ready`));
    worker.on('message', onReady).on('error', settle).on('exit', onExit);
  });
  // The thread keeps the process alive only while a statement is waiting for it, as a socket would.
  worker.unref();
  worker.on('message', (reply: Reply) => {
    const waiter = pending.get(reply.id);
    if (!waiter) return;
    pending.delete(reply.id);
    if (pending.size === 0) worker.unref();
    if (reply.ok) waiter.resolve(reply);
    else waiter.reject(revive(reply.error));
  });
  worker.on('error', (error) => failAll(error));
  worker.on('exit', (code) => failAll(new Error(`the embedded store's thread exited (${code})`)));

  const call = (operation: Operation): Promise<Reply & { ok: true }> => {
    if (gone) return Promise.reject(gone);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      if (pending.size === 0) worker.ref();
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, ...operation });
    });
  };

  const queries = (tx?: number): SqlQueries => ({
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      const reply = await call({ op: 'query', sql, params, ...(tx === undefined ? {} : { tx }) });
      return { rows: (reply.rows ?? []) as Row[] };
    },
    async exec(sql: string) {
      await call({ op: 'exec', sql, ...(tx === undefined ? {} : { tx }) });
    },
  });

  return {
    ...queries(),
    async transaction<T>(work: (tx: SqlQueries) => Promise<T>): Promise<T> {
      const tx = nextTx++;
      // Not awaited before the work starts: the thread takes messages in order, so the work's first
      // statement waits there for BEGIN instead of a round trip here. A BEGIN that fails fails it too.
      const opened = call({ op: 'begin', tx });
      let result: T;
      try {
        result = await work(queries(tx));
        await opened;
      } catch (error) {
        await opened.then(() => call({ op: 'end', tx, commit: false })).catch(() => {});
        throw error;
      }
      await call({ op: 'end', tx, commit: true });
      return result;
    },
    async close() {
      if (gone) return;
      await call({ op: 'close' });
      gone = new Error('the embedded store is closed');
      await worker.terminate();
    },
  };
}
