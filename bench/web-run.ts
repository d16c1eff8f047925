// The web and knowledge tools' latency over loopback fixtures, each next to a REFERENCE measured in the same run:
// Node's own fetch of the same fixture resource, read to the end (and JSON.parse where the tool's
// provider answers JSON) — the floor: what the loopback round trip and the provider's bytes cost
// with no upstream layer, parser or tool. Cold = the cache cannot answer (a new query each call);
// warm = the same query again (served from the TTL cache). The handlers run in this process as the
// gate runs them (payment is measured by `npm run bench`); the providers' rate limits are lifted so
// the layer, not a provider's policy, is measured. Then Chromium's memory, idle and under 8
// concurrent renders. Writes bench/results/web-latest.json and its section of docs/benchmarks.md.
//   npm run bench:web
import { writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { catalog } from '../src/catalog/index.ts';
import type { Tool, ToolContext } from '../src/catalog/tool.ts';
import { loadConfig } from '../src/config.ts';
import { silentLogger } from '../src/log.ts';
import { createToolServices } from '../src/upstream/tool-services.ts';
import type { ToolServices } from '../src/upstream/tool-services.ts';
import { startWebFixtures, unlimitedProviders } from '../test/support/web-fixtures.ts';
import type { WebFixtures } from '../test/support/web-fixtures.ts';
import { writeSection } from './doc-section.ts';
import type { Stats } from './latency-stats.ts';
import { stats } from './latency-stats.ts';
import { descendantsOf, processMemory } from './process-tree-memory.ts';
import { describeMachine } from './report.ts';

interface Row {
  scenario: string;
  tool: Stats;
  reference: Stats;
}

const FAST_CALLS = Number(process.env.BENCH_WEB_CALLS ?? 200);
const RENDER_CALLS = Number(process.env.BENCH_WEB_RENDER_CALLS ?? 20);
const WARMUP_CALLS = 5;

async function time(calls: number, run: (i: number) => Promise<unknown>): Promise<Stats> {
  for (let i = 0; i < WARMUP_CALLS; i += 1) await run(-1 - i);
  const samples: number[] = [];
  for (let i = 0; i < calls; i += 1) {
    const started = performance.now();
    await run(i);
    samples.push(performance.now() - started);
  }
  return stats(samples);
}

function toolNamed(name: string): Tool {
  const tool = catalog.find((t) => t.name === name);
  if (!tool?.handler) throw new Error(`${name} is not built`);
  return tool;
}

function contextFor(services: ToolServices, timeoutMs = 30_000): ToolContext {
  const deadline = Date.now() + timeoutMs;
  return { signal: AbortSignal.timeout(timeoutMs), now: () => new Date(), caller: { ip: '127.0.0.1' }, deadline, upstream: services.upstream.forCall(deadline), web: services.web };
}

async function callTool(services: ToolServices, name: string, input: Record<string, unknown>): Promise<unknown> {
  const tool = toolNamed(name);
  return tool.handler!(tool.input.parse(input) as Record<string, unknown>, contextFor(services, tool.timeoutMs));
}

/** The floor: the same fixture resource through Node's fetch, read whole (and parsed, for JSON). */
async function reference(url: string, init: RequestInit = {}, json = false): Promise<unknown> {
  const response = await fetch(url, init);
  const text = await response.text();
  return json ? JSON.parse(text) : text;
}

interface Scenario {
  name: string;
  calls: number;
  run(services: ToolServices, i: number): Promise<unknown>;
  reference(web: WebFixtures): Promise<unknown>;
}

function scenarios(web: WebFixtures): Scenario[] {
  const provider = (path: string) => `${web.server.origin}${path}`;
  const cold = (i: number) => `cold ${i} ${Math.random()}`;
  return [
    {
      name: 'lookup_wayback_snapshot, cold', calls: FAST_CALLS,
      run: (s, i) => callTool(s, 'lookup_wayback_snapshot', { url: `https://example.com/${cold(i)}` }),
      reference: () => reference(`${provider('/wayback-api/wayback/available')}?url=https://example.com/`, {}, true),
    },
    {
      name: 'lookup_wayback_snapshot, warm', calls: FAST_CALLS,
      run: (s) => callTool(s, 'lookup_wayback_snapshot', { url: 'https://example.com/' }),
      reference: () => reference(`${provider('/wayback-api/wayback/available')}?url=https://example.com/`, {}, true),
    },
    {
      name: 'search_web (SearXNG), cold', calls: FAST_CALLS,
      run: (s, i) => callTool(s, 'search_web', { query: cold(i) }),
      reference: () => reference(`${provider('/searxng/search')}?q=x&format=json`, {}, true),
    },
    {
      name: 'search_web (SearXNG), warm', calls: FAST_CALLS,
      run: (s) => callTool(s, 'search_web', { query: 'warm query' }),
      reference: () => reference(`${provider('/searxng/search')}?q=x&format=json`, {}, true),
    },
    {
      name: 'search_web (DuckDuckGo HTML), cold', calls: FAST_CALLS,
      run: (s, i) => callTool(s, 'search_web', { query: cold(i) }),
      reference: () => reference(provider('/ddg/html/'), { method: 'POST', body: 'q=x&b=', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
    },
    {
      name: 'get_trending_news, front page, warm', calls: FAST_CALLS,
      run: (s) => callTool(s, 'get_trending_news', { limit: 8 }),
      reference: () => reference(`${provider('/hn/api/v1/search')}?tags=front_page`, {}, true),
    },
    {
      name: 'get_trending_news, topic (HN + GDELT), cold', calls: FAST_CALLS,
      run: (s, i) => callTool(s, 'get_trending_news', { topic: cold(i) }),
      reference: async () => Promise.all([reference(`${provider('/hn/api/v1/search_by_date')}?query=x`, {}, true), reference(`${provider('/gdelt/api/v2/doc/doc')}?query=x`, {}, true)]),
    },
    ...deepSearchScenarios(web),
    ...knowledgeScenarios(web),
    {
      name: 'extract_opengraph_metadata', calls: FAST_CALLS,
      run: (s) => callTool(s, 'extract_opengraph_metadata', { url: web.page('article.html') }),
      reference: () => reference(web.page('article.html')),
    },
    {
      name: 'browse_web_stealth, static page', calls: FAST_CALLS,
      run: (s) => callTool(s, 'browse_web_stealth', { url: web.page('article.html') }),
      reference: () => reference(web.page('article.html')),
    },
    {
      name: 'browse_web_stealth, rendered in Chromium', calls: RENDER_CALLS,
      run: (s) => callTool(s, 'browse_web_stealth', { url: web.page('js-app.html') }),
      reference: () => reference(web.page('js-app.html')),
    },
    {
      name: 'distill_document by URL', calls: FAST_CALLS,
      run: (s) => callTool(s, 'distill_document', { url: web.page('article.html') }),
      reference: () => reference(web.page('article.html')),
    },
  ];
}

/** search_deep_meta, when it is built: every engine at once. */
function deepSearchScenarios(web: WebFixtures): Scenario[] {
  if (!catalog.find((t) => t.name === 'search_deep_meta')?.handler) return [];
  return [
    {
      name: 'search_deep_meta (6 engines), cold', calls: FAST_CALLS,
      run: (s, i) => callTool(s, 'search_deep_meta', { query: `cold ${i} ${Math.random()}` }),
      reference: () => reference(`${web.server.origin}/searxng/search?q=x&format=json`, {}, true),
    },
  ];
}

/** The knowledge tools: the offline parts (gazetteer, time zone, country, detection) ride on a provider call. */
function knowledgeScenarios(web: WebFixtures): Scenario[] {
  const provider = (path: string) => `${web.server.origin}${path}`;
  const metno = () => reference(`${provider('/metno/weatherapi/locationforecast/2.0/compact')}?lat=59.9127&lon=10.7461`, {}, true);
  const nominatim = () => reference(`${provider('/nominatim/reverse')}?format=jsonv2&lat=44.50155&lon=11.33989`, {}, true);
  const dnsTypes = ['A', 'AAAA', 'MX', 'NS', 'CAA', 'TXT', 'DS', 'DNSKEY'];
  const doh = () =>
    Promise.all([
      ...dnsTypes.map((type) => reference(`${provider('/doh')}?name=example.com&type=${type}`, {}, true)),
      reference(`${provider('/doh')}?name=_dmarc.example.com&type=TXT`, {}, true),
      reference(provider('/rdap/domain/example.com'), {}, true),
    ]);
  return [
    { name: 'get_live_weather, gazetteer name, warm', calls: FAST_CALLS, run: (s) => callTool(s, 'get_live_weather', { location: 'Oslo' }), reference: metno },
    { name: 'get_live_weather, coordinates, cold', calls: FAST_CALLS, run: (s, i) => callTool(s, 'get_live_weather', { location: `${(59 + (i + 10) / 10_000).toFixed(4)},10.75` }), reference: metno },
    { name: 'reverse_geocode, cold', calls: FAST_CALLS, run: (s, i) => callTool(s, 'reverse_geocode', { latitude: 44 + (i + 10) / 100_000, longitude: 11.33989 }), reference: nominatim },
    { name: 'reverse_geocode, warm', calls: FAST_CALLS, run: (s) => callTool(s, 'reverse_geocode', { latitude: 44.50155, longitude: 11.33989 }), reference: nominatim },
    {
      name: 'translate_language (MyMemory), cold', calls: FAST_CALLS,
      run: (s, i) => callTool(s, 'translate_language', { text: `hello world number ${i} ${Math.random()}`, sourceLang: 'en', targetLang: 'pt-BR' }),
      reference: () => reference(`${provider('/mymemory/get')}?q=hello&langpair=en|pt-BR`, {}, true),
    },
    { name: 'check_domain_security (9 DNS + RDAP), warm', calls: FAST_CALLS, run: (s) => callTool(s, 'check_domain_security', { domain: 'example.com' }), reference: doh },
    { name: 'lookup_wiki_fact, warm', calls: FAST_CALLS, run: (s) => callTool(s, 'lookup_wiki_fact', { query: 'Tokyo', lang: 'en' }), reference: () => reference(provider('/wikipedia-en/api/rest_v1/page/summary/Tokyo'), {}, true) },
    { name: 'get_exchange_rates, warm', calls: FAST_CALLS, run: (s) => callTool(s, 'get_exchange_rates', { fromCurrency: 'USD', toCurrencies: 'EUR,GBP' }), reference: () => reference(`${provider('/frankfurter/v1/latest')}?base=USD&symbols=EUR,GBP`, {}, true) },
  ];
}

interface RenderMemory {
  idle: { chromiumRssMiB: number; chromiumPssMiB: number; nodeRssMiB: number };
  peak: { chromiumRssMiB: number; chromiumPssMiB: number; nodeRssMiB: number; concurrent: number; renderedOk: number; seconds: number };
}

/** Chromium's process tree (and this process), idle after a first render, then at the peak of 8 renders at once. */
async function renderMemory(services: ToolServices, web: WebFixtures): Promise<RenderMemory> {
  const chromiumTree = () => descendantsOf(process.pid).filter((pid) => pid !== process.pid);
  await callTool(services, 'browse_web_stealth', { url: web.page('js-app.html') });
  await sleep(1_000);
  const idleChromium = processMemory(chromiumTree());
  const idle = { chromiumRssMiB: idleChromium.rssMiB, chromiumPssMiB: idleChromium.pssMiB, nodeRssMiB: processMemory([process.pid]).rssMiB };
  let peak = { chromiumRssMiB: 0, chromiumPssMiB: 0, nodeRssMiB: 0 };
  const sampler = setInterval(() => {
    const now = processMemory(chromiumTree());
    if (now.pssMiB > peak.chromiumPssMiB) peak = { chromiumRssMiB: now.rssMiB, chromiumPssMiB: now.pssMiB, nodeRssMiB: processMemory([process.pid]).rssMiB };
  }, 100);
  const started = performance.now();
  const results = await Promise.allSettled(Array.from({ length: 8 }, () => callTool(services, 'browse_web_stealth', { url: web.page('js-app.html') })));
  clearInterval(sampler);
  const renderedOk = results.filter((r) => r.status === 'fulfilled' && (r.value as { rendered?: boolean }).rendered === true).length;
  return { idle, peak: { ...peak, concurrent: 8, renderedOk, seconds: Math.round((performance.now() - started) / 10) / 100 } };
}

async function main(): Promise<void> {
  const startedAt = performance.now();
  const machine = describeMachine();
  const web = await startWebFixtures();
  const env = { ...web.env, TOOLGATE_LOG_LEVEL: 'silent', TOOLGATE_RENDER_CONCURRENCY: '8' };
  delete (env as Record<string, string>).TOOLGATE_UPSTREAM_TIMEOUT_MS;
  const config = loadConfig(env);
  const rows: Row[] = [];
  // DuckDuckGo answers search_web only when the engines before it are off: its own services.
  const servicesAll = createToolServices(config, silentLogger, { providers: unlimitedProviders });
  const servicesDdg = createToolServices(loadConfig({ ...env, TOOLGATE_SEARXNG_URL: 'off', TOOLGATE_BRAVE_URL: 'off' }), silentLogger, { providers: unlimitedProviders });
  try {
    for (const scenario of scenarios(web)) {
      const services = scenario.name.includes('DuckDuckGo') ? servicesDdg : servicesAll;
      const tool = await time(scenario.calls, (i) => scenario.run(services, i));
      const ref = await time(scenario.calls, () => scenario.reference(web));
      rows.push({ scenario: scenario.name, tool, reference: ref });
      console.log(`${scenario.name.padEnd(48)} tool p50 ${tool.p50} ms p99 ${tool.p99} ms | reference p50 ${ref.p50} ms p99 ${ref.p99} ms`);
    }
    const memory = await renderMemory(servicesAll, web);
    console.log('Chromium memory', JSON.stringify(memory));
    const results = { machine, rows, memory, totalSeconds: Math.round((performance.now() - startedAt) / 1000) };
    await writeFile(new URL('./results/web-latest.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
    await writeSection(new URL('../docs/benchmarks.md', import.meta.url).pathname, MARKERS, section(results), (s) => s, '## Web tools');
  } finally {
    await servicesAll.close();
    await servicesDdg.close();
    await web.close();
  }
}

const MARKERS = { begin: '<!-- web-bench:start -->', end: '<!-- web-bench:end -->' };

function section(results: { machine: ReturnType<typeof describeMachine>; rows: Row[]; memory: RenderMemory; totalSeconds: number }): string {
  const { machine, rows, memory } = results;
  const ms = (s: Stats) => `${s.p50} / ${s.p99}`;
  return [
    MARKERS.begin,
    '_Generated by `npm run bench:web`; edit outside the markers._',
    '',
    `Run: ${machine.date} · ${machine.cpus} vCPU (${machine.cpuModel}) · ${machine.memoryGiB} GiB · Node ${machine.node} · commit ${machine.commit} · load average at start ${machine.loadAverageAtStart} · whole run ${results.totalSeconds} s`,
    '',
    '### Latency per tool (ms, p50 / p99, sequential calls in one process)',
    '',
    '| scenario | calls | toolgate tool | reference: Node fetch of the same fixture | tool − reference (p50) |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.scenario} | ${r.tool.calls} | ${ms(r.tool)} | ${ms(r.reference)} | ${Math.round((r.tool.p50 - r.reference.p50) * 100) / 100} |`),
    '',
    '### Chromium memory (MiB)',
    '',
    '| state | Chromium RSS (sum over its processes) | Chromium PSS | this node process RSS |',
    '|---|---|---|---|',
    `| idle, after one render | ${memory.idle.chromiumRssMiB} | ${memory.idle.chromiumPssMiB} | ${memory.idle.nodeRssMiB} |`,
    `| peak, 8 renders at once (${memory.peak.renderedOk}/8 rendered, ${memory.peak.seconds} s) | ${memory.peak.chromiumRssMiB} | ${memory.peak.chromiumPssMiB} | ${memory.peak.nodeRssMiB} |`,
    MARKERS.end,
  ].join('\n');
}

await main();
