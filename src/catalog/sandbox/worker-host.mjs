// The worker side of worker-pool.ts: announces that the worker is ready, then answers each task
// with the value `compute` returns for it, or with the error it throws. One task at a time.
// Plain JavaScript on purpose: a worker started from a .mjs file needs no TypeScript loader.
import { parentPort } from 'node:worker_threads';

/**
 * @param {(task: any) => unknown} compute Runs one task synchronously; its value must be structured-cloneable.
 */
export function serveTasks(compute) {
  if (!parentPort) throw new Error('serveTasks runs inside a worker thread');
  const port = parentPort;
  port.on('message', (/** @type {{ id: number, task: unknown }} */ message) => {
    let reply;
    try {
      reply = { id: message.id, ok: true, value: compute(message.task) };
    } catch (error) {
      const { name, message: text } = error instanceof Error ? error : { name: 'Error', message: String(error) };
      reply = { id: message.id, ok: false, error: { name, message: text } };
    }
    try {
      port.postMessage(reply);
    } catch (error) {
      // A value that cannot be cloned is the computation's bug; say so instead of dying.
      port.postMessage({ id: message.id, ok: false, error: { name: 'DataCloneError', message: String(error) } });
    }
  });
  port.postMessage({ ready: true });
}
