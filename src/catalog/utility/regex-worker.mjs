// Worker entry of evaluate_regex: runs regex-engine.mjs on each task worker-pool.ts sends.
import { serveTasks } from '../sandbox/worker-host.mjs';
import { runRegex } from './regex-engine.mjs';

serveTasks(runRegex);
