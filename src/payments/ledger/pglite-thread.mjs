// The embedded store's own thread (see pglite-thread-client.ts): PGlite runs here, so the WASM
// PostgreSQL's work (parsing, planning, executing, writing pages) leaves the gateway's main thread.
// Plain JavaScript on purpose: a worker started from a .mjs file needs no TypeScript loader.
//
// Messages, answered in the order the database finishes them, each by its `id`:
//   { id, op: 'query', sql, params, tx? }  →  { id, ok: true, rows }
//   { id, op: 'exec', sql, tx? }           →  { id, ok: true }
//   { id, op: 'begin', tx }                →  answered once the transaction is open
//   { id, op: 'end', tx, commit }          →  answered once it is committed or rolled back
//   { id, op: 'close' }                    →  answered once the database is closed
// A statement that names `tx` runs inside that transaction; one that does not waits, as on one
// PGlite instance, until no transaction holds the database.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

if (!parentPort) throw new Error('pglite-thread runs inside a worker thread');
const port = parentPort;

/** @type {{ dataDir?: string, postgresqlconf: string[] }} */
const options = workerData;
const db = new PGlite({ ...(options.dataDir ? { dataDir: options.dataDir } : {}), postgresqlconf: options.postgresqlconf });

/**
 * Open transactions by the id the main thread gave them. `ready` resolves to PGlite's transaction
 * handle once BEGIN has run; `finish` ends the transaction's callback, committing or rolling back.
 * @type {Map<number, { ready: Promise<import('@electric-sql/pglite').Transaction>, finish: (commit: boolean) => void, done: Promise<void> }>}
 */
const transactions = new Map();

function begin(txId) {
  /** @type {(tx: import('@electric-sql/pglite').Transaction) => void} */
  let opened = () => {};
  /** @type {(commit: boolean) => void} */
  let finish = () => {};
  const ready = new Promise((resolve) => (opened = resolve));
  const ended = new Promise((resolve) => (finish = resolve));
  const done = db.transaction(async (tx) => {
    opened(tx);
    if (!(await ended)) await tx.rollback();
  });
  // A BEGIN that fails leaves `ready` pending forever: fail the statements waiting on it instead.
  const usable = Promise.race([ready, done.then(() => { throw new Error('the transaction ended before it opened'); })]);
  usable.catch(() => transactions.delete(txId));
  transactions.set(txId, { ready: usable, finish, done });
  return usable;
}

async function end(txId, commit) {
  const open = transactions.get(txId);
  if (!open) throw new Error(`no open transaction ${txId}`);
  open.finish(commit);
  try {
    await open.done;
  } finally {
    transactions.delete(txId);
  }
}

/** The transaction a statement names, or the database itself. */
async function target(txId) {
  if (txId === undefined) return db;
  const open = transactions.get(txId);
  if (!open) throw new Error(`no open transaction ${txId}`);
  return open.ready;
}

async function answer(message) {
  switch (message.op) {
    case 'query': {
      const on = await target(message.tx);
      return { rows: (await on.query(message.sql, message.params)).rows };
    }
    case 'exec':
      await (await target(message.tx)).exec(message.sql);
      return {};
    case 'begin':
      await begin(message.tx);
      return {};
    case 'end':
      await end(message.tx, message.commit);
      return {};
    case 'close':
      await db.close();
      return {};
    default:
      throw new Error(`unknown operation ${message.op}`);
  }
}

/** An error as plain data: PostgreSQL's fields (`code`, `constraint`, `detail`…) come along. */
function plainError(error) {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const fields = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === undefined || typeof value === 'function' || typeof value === 'object') continue;
    fields[key] = value;
  }
  return { ...fields, name: error.name, message: error.message };
}

port.on('message', (message) => {
  answer(message).then(
    (value) => port.postMessage({ id: message.id, ok: true, ...value }),
    (error) => port.postMessage({ id: message.id, ok: false, error: plainError(error) }),
  );
});

db.waitReady.then(
  () => port.postMessage({ ready: true }),
  (error) => port.postMessage({ ready: false, error: plainError(error) }),
);
