// A worker for worker-pool.test.ts: each task names what to do.
import { serveTasks } from './worker-host.mjs';

/** @type {unknown[]} */
const hoard = [];

serveTasks((/** @type {{ kind: string, value?: unknown, ms?: number }} */ task) => {
  switch (task.kind) {
    case 'echo':
      return task.value;
    case 'spin': // a loop that never yields, like a backtracking regex
      for (;;);
    case 'sleep': { // busy-waits a given time, then answers
      const until = Date.now() + (task.ms ?? 0);
      while (Date.now() < until);
      return 'slept';
    }
    case 'allocate': // grows until the memory limit stops it
      for (;;) hoard.push(new Array(1_000_000).fill(hoard.length));
    case 'throw':
      throw new TypeError('thrown on purpose');
    case 'exit':
      process.exit(3);
    case 'uncloneable':
      return () => 1;
    default:
      throw new Error(`unknown task ${task.kind}`);
  }
});
