// A recovery worker that dies on its first batch (recovery-thread.test.ts): its jobs must be recovered inline.
import { parentPort } from 'node:worker_threads';

parentPort.on('message', () => process.exit(3));
parentPort.postMessage('ready');
