// Rendering script-built pages in the real headless Chromium, every request answered through the
// test's fetchResource (node fetch to the loopback fixture server; anything else refused as the
// SSRF guard would). Needs Chromium (Debian package `chromium`; `.ci/run` installs it): skipped only
// when it is missing outside CI; in CI (CI=true) a missing browser fails the test.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';
import { after, before, test } from 'node:test';
import type { FixtureServer } from '../../../test/support/fixture-server.ts';
import { jsonAnswer, startFixtureServer } from '../../../test/support/fixture-server.ts';
import { UrlRefusedError } from '../guard/guarded-fetch.ts';
import { chromiumPathFrom } from './chromium-executable.ts';
import { launchChromium } from './chromium-launch.ts';
import { PageRenderer } from './page-renderer.ts';
import { RenderTimeoutError, RenderUnavailableError } from './render-errors.ts';
import type { ResourceFetcher, ResourceRequest } from './render-types.ts';

const CHROMIUM = chromiumPathFrom(process.env);
const skip = !existsSync(CHROMIUM) && process.env.CI !== 'true' ? `${CHROMIUM} is missing (install the Debian package chromium; in CI this test runs)` : false;

const html = (body: string, title = 'Shell') => ({
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`,
});
const script = (source: string) => ({ headers: { 'content-type': 'text/javascript' }, body: source });

const APP_JS = `
fetch('/data.json').then((r) => r.json()).then((data) => {
  document.getElementById('root').textContent = data.message;
  document.title = data.title;
});`;

let fixture: FixtureServer;
let renderer: PageRenderer;
/** A plain TCP listener for the page's WebSocket: any connection reaching it would be a leak. */
let socketTarget: Server;
let socketConnections = 0;

/** What went through fetchResource, in order. */
let fetched: ResourceRequest[] = [];

const fetchViaNode: ResourceFetcher = async (request) => {
  fetched.push(request);
  const target = new URL(request.url);
  if (target.origin !== fixture.origin) throw new UrlRefusedError('forbidden_address', `${target.hostname} is a private address`, request.url);
  const response = await fetch(target, {
    method: request.method,
    headers: request.headers,
    ...(request.postData ? { body: new Uint8Array(request.postData) } : {}),
    signal: request.signal,
  });
  return { status: response.status, headers: Object.fromEntries(response.headers), body: Buffer.from(await response.arrayBuffer()), url: response.url };
};

const pathsFetched = () => fetched.filter((r) => r.url.startsWith(fixture.origin)).map((r) => new URL(r.url).pathname);

before(async () => {
  if (skip) return;
  fixture = await startFixtureServer();
  fixture.on('/app', html('<div id="root"></div><script src="/app.js"></script>'));
  fixture.on('/app.js', script(APP_JS));
  fixture.on('/data.json', jsonAnswer({ message: 'Rendered by the script: 42 widgets', title: 'Widgets' }));
  socketTarget = createServer((socket) => {
    socketConnections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => socketTarget.listen(0, '127.0.0.1', resolve));
  renderer = new PageRenderer({ executablePath: CHROMIUM, maxConcurrent: 4 });
});

after(async () => {
  await renderer?.close();
  await fixture?.close();
  await new Promise((resolve) => socketTarget?.close(resolve));
});

test('a script-built page is rendered, its script and data fetched through fetchResource', { skip }, async () => {
  fetched = [];
  fixture.requests.length = 0;
  const page = await renderer.render(`${fixture.origin}/app`, { fetchResource: fetchViaNode, timeoutMs: 10_000 });
  assert.match(page.html, /<div id="root">Rendered by the script: 42 widgets<\/div>/);
  assert.equal(page.title, 'Widgets');
  assert.equal(page.status, 200);
  assert.equal(page.finalUrl, `${fixture.origin}/app`);
  assert.deepEqual(pathsFetched(), ['/app', '/app.js', '/data.json']);
  assert.deepEqual(
    fetched.map((r) => r.resourceType),
    ['document', 'script', 'fetch'],
  );
  assert.equal(page.settledBy, 'network_idle');
  assert.deepEqual(page.resources, { requested: 3, refused: 0, failed: 0, skipped: 0 });
  assert.equal(fixture.requests.length, 3, 'the fixture server saw only what fetchResource fetched');
});

test('a private address and a WebSocket are refused while the page still renders; nothing bypasses fetchResource', { skip }, async () => {
  fixture.on('/hostile', html('<div id="root"></div><p id="secret"></p><p id="ws"></p><img src="/logo.png"><script src="/hostile.js"></script>'));
  fixture.on(
    '/hostile.js',
    script(`
const note = (id, text) => { document.getElementById(id).textContent += text + ';'; };
fetch('http://10.1.2.3/secret').then(() => note('secret', 'fetched'), () => note('secret', 'blocked'));
const socket = new WebSocket('ws://127.0.0.1:${(socketTarget.address() as AddressInfo).port}/');
socket.onmessage = () => note('ws', 'message');
socket.onclose = (event) => note('ws', 'closed ' + event.code);
${APP_JS}`),
  );
  fetched = [];
  fixture.requests.length = 0;
  const page = await renderer.render(`${fixture.origin}/hostile`, { fetchResource: fetchViaNode, timeoutMs: 10_000 });
  assert.match(page.html, /Rendered by the script: 42 widgets/);
  assert.match(page.html, /<p id="secret">blocked;<\/p>/);
  assert.match(page.html, /<p id="ws">closed \d+;<\/p>/, 'the page saw its WebSocket closed, with no message');
  assert.ok(fetched.some((r) => r.url === 'http://10.1.2.3/secret'), 'the private URL was put to fetchResource, which refused it');
  assert.equal(socketConnections, 0, 'the WebSocket never reached a socket');
  assert.equal(page.resources.refused, 2, 'the private fetch and the WebSocket');
  assert.equal(page.resources.skipped, 1, 'the image');
  assert.equal(page.resources.failed, 0);
  // Everything the fixture server received was fetched by fetchResource, and nothing else.
  assert.deepEqual(
    fixture.requests.map((r) => r.path),
    pathsFetched(),
  );
});

test('a navigation the fetcher followed through a redirect ends on the final URL', { skip }, async () => {
  fixture.on('/old-address', { status: 301, headers: { location: '/app' } });
  fetched = [];
  const page = await renderer.render(`${fixture.origin}/old-address`, { fetchResource: fetchViaNode, timeoutMs: 10_000 });
  assert.equal(page.finalUrl, `${fixture.origin}/app`);
  assert.match(page.html, /42 widgets/);
  assert.deepEqual(pathsFetched(), ['/old-address', '/app.js', '/data.json'], 'the final document was not fetched twice');
});

test('a refused main document fails the render with the fetcher\'s own error', { skip }, async () => {
  await assert.rejects(renderer.render('http://10.1.2.3/', { fetchResource: fetchViaNode, timeoutMs: 5_000 }), UrlRefusedError);
  await assert.rejects(renderer.render('file:///etc/passwd', { fetchResource: fetchViaNode, timeoutMs: 5_000 }), TypeError);
});

test('requests beyond maxResources are refused', { skip }, async () => {
  fixture.on('/many', html(`<div id="root"></div>${Array.from({ length: 6 }, (_, i) => `<script src="/s${i}.js"></script>`).join('')}`));
  for (let i = 0; i < 6; i += 1) fixture.on(`/s${i}.js`, script(`document.getElementById('root').textContent += '${i}';`));
  const page = await renderer.render(`${fixture.origin}/many`, { fetchResource: fetchViaNode, timeoutMs: 10_000, maxResources: 4 });
  assert.match(page.html, /<div id="root">012<\/div>/);
  assert.deepEqual(page.resources, { requested: 7, refused: 3, failed: 0, skipped: 0 });
});

test('a page whose script never finishes loading is cut by timeoutMs', { skip }, async () => {
  fixture.on('/stuck', html('<div id="root"></div><script src="/never.js"></script>'));
  fixture.on('/never.js', { ...script('1'), delayMs: 4_000 });
  const started = Date.now();
  await assert.rejects(renderer.render(`${fixture.origin}/stuck`, { fetchResource: fetchViaNode, timeoutMs: 1_500 }), (error: unknown) => {
    assert.ok(error instanceof RenderTimeoutError);
    assert.equal(error.timeoutMs, 1_500);
    return true;
  });
  assert.ok(Date.now() - started < 3_000, `took ${Date.now() - started} ms`);
  // The slot is given back once the context is closed, just after the caller got the error.
  for (let waited = 0; renderer.load().active > 0 && waited < 2_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(renderer.load(), { active: 0, queued: 0 }, 'the slot was given back');
});

test('a caller abort ends the render', { skip }, async () => {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 300);
  await assert.rejects(
    renderer.render(`${fixture.origin}/stuck`, { fetchResource: fetchViaNode, timeoutMs: 10_000, signal: controller.signal }),
    { name: 'RenderAbortedError' },
  );
});

test('8 renders at once with maxConcurrent 4 all complete, never more than 4 at a time', { skip }, async () => {
  fixture.on('/slow-data.json', { ...jsonAnswer({ message: 'slow' }), delayMs: 100 });
  fixture.on('/busy', html(`<div id="root"></div><script>fetch('/slow-data.json').then((r) => r.json()).then((d) => { document.getElementById('root').textContent = d.message; });</script>`));
  let mostActive = 0;
  let mostQueued = 0;
  const watching: ResourceFetcher = (request) => {
    const load = renderer.load();
    mostActive = Math.max(mostActive, load.active);
    mostQueued = Math.max(mostQueued, load.queued);
    return fetchViaNode(request);
  };
  const pages = await Promise.all(Array.from({ length: 8 }, () => renderer.render(`${fixture.origin}/busy`, { fetchResource: watching, timeoutMs: 20_000 })));
  for (const page of pages) assert.match(page.html, /<div id="root">slow<\/div>/, `settled by ${page.settledBy}`);
  assert.equal(mostActive, 4);
  assert.ok(mostQueued > 0, 'some renders waited for a slot');
});

/** Chromium's browser process: a child of this test process. */
function chromiumChildren(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return parent === process.pid && readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'chromium';
      } catch {
        return false;
      }
    });
}

test('after Chromium was killed, the next render starts it again', { skip: skip || (process.platform !== 'linux' && 'needs /proc') }, async () => {
  await renderer.render(`${fixture.origin}/app`, { fetchResource: fetchViaNode, timeoutMs: 10_000 });
  const [browserPid, ...others] = chromiumChildren();
  assert.ok(browserPid !== undefined && others.length === 0, 'one browser process');
  process.kill(browserPid, 'SIGKILL');
  for (let waited = 0; existsSync(`/proc/${browserPid}/stat`) && waited < 2_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  const page = await renderer.render(`${fixture.origin}/app`, { fetchResource: fetchViaNode, timeoutMs: 15_000 });
  assert.match(page.html, /42 widgets/);
  assert.notEqual(chromiumChildren()[0], browserPid);
});

test('a redirect the fetcher hands back instead of following it is not handed on to Chromium', { skip }, async () => {
  fixture.on('/hops', html('<div id="root"></div><script src="/hop.js"></script><script src="/app.js"></script>'));
  fixture.on('/hop.js', { status: 302, headers: { location: `${fixture.origin}/app.js?via=redirect` } });
  const notFollowing: ResourceFetcher = async (request) => {
    if (!request.url.endsWith('/hop.js')) return fetchViaNode(request);
    const response = await fetch(request.url, { redirect: 'manual', signal: request.signal });
    return { status: response.status, headers: Object.fromEntries(response.headers), body: Buffer.alloc(0), url: request.url };
  };
  fixture.requests.length = 0;
  const page = await renderer.render(`${fixture.origin}/hops`, { fetchResource: notFollowing, timeoutMs: 10_000 });
  assert.match(page.html, /42 widgets/);
  assert.equal(page.resources.failed, 1);
  assert.deepEqual(
    fixture.requests.map((r) => r.url),
    ['/hops', '/hop.js', '/app.js', '/data.json'],
  );
});

test('the launch flags alone keep Chromium off the network: a direct load and a redirect followed outside the routes hit the dead proxy, loopback included', { skip }, async () => {
  fixture.requests.length = 0;
  const browser = await launchChromium(CHROMIUM);
  try {
    // A bare context: neither the routes nor the context-level proxy, only the launch flags.
    const context = await browser.newContext();
    const page = await context.newPage();
    await assert.rejects(page.goto(`${fixture.origin}/app`, { timeout: 5_000 }), /ERR_PROXY_CONNECTION_FAILED/);
    // A redirect answered by a route is followed by Chromium outside the routes: the proxy stops it.
    await context.route('http://toolgate.test/**', (route) =>
      route.request().resourceType() === 'document'
        ? route.fulfill({ contentType: 'text/html', body: '<script src="/hop.js"></script>' })
        : route.fulfill({ status: 302, headers: { location: `http://localhost:${fixture.port}/app.js?via=redirect` } }),
    );
    const followed = page.waitForEvent('requestfailed', { predicate: (request) => request.url().includes('via=redirect'), timeout: 5_000 });
    await page.goto('http://toolgate.test/page', { timeout: 5_000 });
    assert.match((await followed).failure()?.errorText ?? '', /ERR_PROXY_CONNECTION_FAILED/);
    assert.equal(fixture.requests.length, 0);
  } finally {
    await browser.close();
  }
});

test('availability() names the missing executable, and a render there is unavailable', async () => {
  const missing = new PageRenderer({ executablePath: '/nowhere/bin/chromium' });
  const availability = await missing.availability();
  assert.equal(availability.available, false);
  assert.ok(!availability.available && availability.reason.includes('/nowhere/bin/chromium'), JSON.stringify(availability));
  await assert.rejects(missing.render('http://127.0.0.1:1/', { fetchResource: fetchViaNode, timeoutMs: 1_000 }), RenderUnavailableError);
  await missing.close();
});

test('availability() of the real Chromium', { skip }, async () => {
  assert.deepEqual(await renderer.availability(), { available: true });
});
