// A loopback JSON-RPC proxy in front of the test chain that counts what the gateway asks of the
// node, by method (a JSON-RPC batch counts each of its calls), and can answer late, as a distant
// node does.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RpcCounter {
  url: string;
  counts: Map<string, number>;
  /** How long each answer is held back (0: none). */
  delayMs: number;
  total(): number;
  reset(): void;
  close(): Promise<void>;
}

export async function startRpcCounter(target: string): Promise<RpcCounter> {
  const counts = new Map<string, number>();
  const counter = { delayMs: 0 };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      try {
        const parsed = JSON.parse(body.toString('utf8')) as { method?: string } | { method?: string }[];
        for (const call of Array.isArray(parsed) ? parsed : [parsed]) counts.set(call.method ?? '?', (counts.get(call.method ?? '?') ?? 0) + 1);
      } catch {
        counts.set('(unparsable)', (counts.get('(unparsable)') ?? 0) + 1);
      }
      new Promise((resolve) => setTimeout(resolve, counter.delayMs))
        .then(() => fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body }))
        .then(async (answer) => {
          response.writeHead(answer.status, { 'content-type': 'application/json' });
          response.end(Buffer.from(await answer.arrayBuffer()));
        })
        .catch(() => {
          response.writeHead(502);
          response.end();
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    get delayMs() {
      return counter.delayMs;
    },
    set delayMs(ms: number) {
      counter.delayMs = ms;
    },
    total: () => [...counts.values()].reduce((a, b) => a + b, 0),
    reset: () => counts.clear(),
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
