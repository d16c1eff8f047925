// Memory of page rendering: Chromium's whole process tree (browser, zygotes, renderers, utility
// processes) plus this node process, idle after the browser started and at the peak of 8
// concurrent renders of a script-built page (4 at a time). Linux only (/proc). Prints JSON.
//   node --import tsx bench/render-memory.ts
import { loadavg } from 'node:os';
import { chromiumPathFrom } from '../src/upstream/browser/chromium-executable.ts';
import { PageRenderer } from '../src/upstream/browser/page-renderer.ts';
import type { ResourceFetcher } from '../src/upstream/browser/render-types.ts';
import { jsonAnswer, startFixtureServer } from '../test/support/fixture-server.ts';
import { childProcessesNamed, descendantsOf, processMemory } from './process-tree-memory.ts';
import type { TreeMemory } from './process-tree-memory.ts';

const RENDERS = 8;
const MAX_CONCURRENT = 4;
const SAMPLE_MS = 100;

/** A shell whose script builds a few thousand nodes from JSON, like a small app's first view. */
const APP_JS = `
fetch('/items.json').then((r) => r.json()).then((items) => {
  const list = document.createElement('ul');
  for (const item of items) {
    const li = document.createElement('li');
    li.innerHTML = '<h3>' + item.title + '</h3><p>' + item.text + '</p>';
    list.appendChild(li);
  }
  document.getElementById('root').appendChild(list);
});`;
const ITEMS = Array.from({ length: 1_500 }, (_, i) => ({ title: `Item ${i}`, text: `Description of item ${i}, long enough to look like a sentence of a real page.` }));

interface Snapshot {
  chromium: TreeMemory;
  node: TreeMemory;
  totalRssMiB: number;
  totalPssMiB: number;
}

function snapshot(browserPids: readonly number[]): Snapshot {
  const chromium = processMemory(browserPids.flatMap(descendantsOf));
  const node = processMemory([process.pid]);
  return { chromium, node, totalRssMiB: chromium.rssMiB + node.rssMiB, totalPssMiB: chromium.pssMiB + node.pssMiB };
}

const fixture = await startFixtureServer();
fixture.on('/app', { headers: { 'content-type': 'text/html' }, body: '<!doctype html><title>App</title><div id="root"></div><script src="/app.js"></script>' });
fixture.on('/app.js', { headers: { 'content-type': 'text/javascript' }, body: APP_JS });
fixture.on('/items.json', jsonAnswer(ITEMS));

const fetchResource: ResourceFetcher = async (request) => {
  const response = await fetch(request.url, { method: request.method, headers: request.headers, signal: request.signal });
  return { status: response.status, headers: Object.fromEntries(response.headers), body: Buffer.from(await response.arrayBuffer()), url: response.url };
};

const executablePath = chromiumPathFrom(process.env);
const renderer = new PageRenderer({ executablePath, maxConcurrent: MAX_CONCURRENT });
try {
  const availability = await renderer.availability();
  if (!availability.available) throw new Error(availability.reason);
  const nodeBeforeLaunch = processMemory([process.pid]);

  // The first render starts the browser; then it idles with no context open.
  await renderer.render(`${fixture.origin}/app`, { fetchResource, timeoutMs: 30_000 });
  const browserPids = childProcessesNamed('chromium');
  if (browserPids.length === 0) throw new Error('no Chromium process found below this one');
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const idle = snapshot(browserPids);

  let peak = idle;
  const sampler = setInterval(() => {
    const now = snapshot(browserPids);
    if (now.totalRssMiB > peak.totalRssMiB) peak = now;
  }, SAMPLE_MS);
  const loadBefore = loadavg()[0] ?? 0;
  const started = Date.now();
  const pages = await Promise.all(Array.from({ length: RENDERS }, () => renderer.render(`${fixture.origin}/app`, { fetchResource, timeoutMs: 60_000 })));
  const wallMs = Date.now() - started;
  clearInterval(sampler);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const after = snapshot(browserPids);

  const renderMs = pages.map((page) => page.timing.renderMs).sort((a, b) => a - b);
  console.log(
    JSON.stringify(
      {
        executablePath,
        renders: RENDERS,
        maxConcurrent: MAX_CONCURRENT,
        pageHtmlKiB: Math.round((pages[0]?.html.length ?? 0) / 1024),
        wallMs,
        loadAverage1m: { before: Number(loadBefore.toFixed(2)), after: Number((loadavg()[0] ?? 0).toFixed(2)) },
        renderMs: { min: renderMs[0], median: renderMs[Math.floor(renderMs.length / 2)], max: renderMs.at(-1) },
        memoryMiB: { nodeBeforeLaunch, idle, peak, afterRenders: after },
        note: 'rssMiB sums each process\'s RSS (shared pages counted per process); pssMiB shares them out',
      },
      null,
      2,
    ),
  );
} finally {
  await renderer.close();
  await fixture.close();
}
