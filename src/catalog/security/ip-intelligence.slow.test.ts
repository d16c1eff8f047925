// Figures for docs/tools/ip-intelligence.md: how long the offline data takes to load (once per
// process), how much memory it holds, and how long one answer takes once it is loaded.
// Run with `node scripts/run-tests.mjs --slow ip-intelligence`; the figures are printed as diagnostics.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { testContext } from '../../../test/support/tool-context.ts';
import { ipIntelligenceTool } from './ip-intelligence.ts';
import { asnTables } from './ip-intelligence/asn-database.ts';
import { classifyAddress } from '../../net/address-scope.ts';
import { geoDatabases } from './ip-intelligence/geo-database.ts';

const call = (ip: string) =>
  ipIntelligenceTool.handler!({}, testContext({ signal: new AbortController().signal, now: () => new Date(), caller: { ip, userAgent: 'curl/8.5.0' } }));

let seed = 20261121;
const random32 = () => {
  seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
  return seed;
};

function randomPublic(version: 4 | 6): string {
  for (;;) {
    const ip =
      version === 4
        ? [24, 16, 8, 0].map((shift) => (random32() >>> shift) & 0xff).join('.')
        : // Global unicast 2000::/3, where every public IPv6 address lives.
          [0x2000 | (random32() & 0x1fff), ...Array.from({ length: 7 }, () => random32() & 0xffff)].map((part) => part.toString(16)).join(':');
    if (classifyAddress(ip)?.scope === 'public') return ip;
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

test('load once, then answer in well under a millisecond', async (t) => {
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  await call('8.8.8.8');
  const firstV4 = performance.now() - started;
  const startedV6 = performance.now();
  await call('2001:4860:4860::8888');
  const firstV6 = performance.now() - startedV6;
  const rssAfter = process.memoryUsage().rss;

  t.diagnostic(`first IPv4 call (loads city v4 + ASN v4): ${firstV4.toFixed(0)} ms`);
  t.diagnostic(`first IPv6 call (loads city v6 + ASN v6): ${firstV6.toFixed(0)} ms`);
  t.diagnostic(
    `loads: city v4 ${geoDatabases[4].loadMs()?.toFixed(0)} ms, city v6 ${geoDatabases[6].loadMs()?.toFixed(0)} ms, ` +
      `ASN v4 ${asnTables[4].loadMs()?.toFixed(0)} ms, ASN v6 ${asnTables[6].loadMs()?.toFixed(0)} ms (in parallel per family)`,
  );
  t.diagnostic(`resident memory after both families: +${((rssAfter - rssBefore) / 2 ** 20).toFixed(0)} MiB`);

  for (const version of [4, 6] as const) {
    const addresses = Array.from({ length: 20_000 }, () => randomPublic(version));
    const timings: number[] = [];
    for (const ip of addresses) {
      const begin = performance.now();
      await call(ip);
      timings.push(performance.now() - begin);
    }
    timings.sort((a, b) => a - b);
    const p50 = percentile(timings, 50);
    const p99 = percentile(timings, 99);
    t.diagnostic(`IPv${version} answer, loaded: p50 ${(p50 * 1000).toFixed(0)} µs, p99 ${(p99 * 1000).toFixed(0)} µs, max ${timings.at(-1)!.toFixed(2)} ms over ${timings.length}`);
    // The median is the stable figure; p99 mostly measures what else the machine is doing.
    assert.ok(p50 < 1, `IPv${version} p50 ${p50} ms`);
  }
});
