// Worker entry of calculate_math: evaluates each formula worker-pool.ts sends with math-engine.mjs.
import { serveTasks } from '../sandbox/worker-host.mjs';
import { evaluateExpression, warmUp } from './math-engine.mjs';

warmUp();
serveTasks(evaluateExpression);
