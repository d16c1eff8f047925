// The ceiling for the 402 path: a bare node:http server that answers every request with a fixed,
// precomputed 402: toolgate's own answer, recorded by the bench (headers + body). No parsing, no framework.
// Run as a child process by bench/run.ts; prints "READY <port>".
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PRICE_ATOMIC, ROUTE } from './chain.ts';

const paymentRequired = {
  x402Version: 2,
  error: 'Payment required',
  resource: { url: `http://127.0.0.1${ROUTE}`, description: 'A random UUID', mimeType: 'application/json' },
  accepts: [
    {
      scheme: 'exact',
      network: 'eip155:31337',
      amount: PRICE_ATOMIC,
      asset: '0x0000000000000000000000000000000000000001',
      payTo: '0x0000000000000000000000000000000000000002',
      maxTimeoutSeconds: 300,
      extra: { name: 'USD Coin', version: '2' },
    },
  ],
};
// BENCH_BARE_402: toolgate's own 402 (headers and body), recorded by the bench, so the ceiling
// sends the very same bytes. Without it (no toolgate in the run), a minimal 402.
const recorded = process.env.BENCH_BARE_402 ? (JSON.parse(process.env.BENCH_BARE_402) as { headers: Record<string, string>; body: string }) : undefined;
const body = recorded?.body ?? JSON.stringify(paymentRequired);
const headers = recorded
  ? { ...recorded.headers, 'content-length': String(Buffer.byteLength(body)) }
  : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'payment-required': Buffer.from(body).toString('base64') };

const server = createServer((_req, res) => {
  res.writeHead(402, headers);
  res.end(body);
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`READY ${(server.address() as AddressInfo).port}`);
});
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
