// autocannon 9 ships no types and @types/autocannon is not installed: the few fields the bench uses.
// (`export default` matches what Node's ESM loader gives for this CommonJS module: module.exports.)
declare module 'autocannon' {
  /** One request of the `requests` list; `onResponse` sees every answer to it (status and whole body). */
  interface RequestSpec {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    onResponse?: (status: number, body: string) => void;
  }
  interface Options {
    url: string;
    requests?: RequestSpec[];
    connections?: number;
    duration?: number;
    pipelining?: number;
    method?: string;
    headers?: Record<string, string>;
    timeout?: number;
  }
  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p99: number;
    total: number;
  }
  interface Result {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    '4xx': number;
    '5xx': number;
    statusCodeStats: Record<string, { count: number }>;
    latency: Histogram;
    requests: Histogram & { sent: number };
    throughput: Histogram;
  }
  interface Instance {
    stop(): void;
  }
  function autocannon(options: Options, callback: (error: Error | null, result: Result) => void): Instance;
  export default autocannon;
  export type { Options, RequestSpec, Result, Histogram };
}
