// Renders pages that only show their content after JavaScript ran, in one shared headless
// Chromium. Each render gets a fresh context whose every request is answered by the caller's
// ResourceFetcher (the SSRF-guarded fetch), so the browser itself never connects anywhere.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Logger } from '../../log.ts';
import { silentLogger } from '../../log.ts';
import { DEFAULT_CHROMIUM_PATH, missingExecutableReason } from './chromium-executable.ts';
import { chromeUserAgent, launchChromium, renderContextOptions } from './chromium-launch.ts';
import { ConcurrencyGate } from './concurrency-gate.ts';
import { waitForPageToSettle } from './page-settling.ts';
import { untilAborted } from '../../until-aborted.ts';
import { RenderDeadline } from './render-deadline.ts';
import { RenderUnavailableError } from './render-errors.ts';
import type { RenderedPage, RenderOptions } from './render-types.ts';
import { routeThroughFetcher } from './resource-routing.ts';

export const DEFAULT_MAX_CONCURRENT_RENDERS = 4;
export const DEFAULT_MAX_RESOURCES = 150;

export interface PageRendererOptions {
  /** Default /usr/bin/chromium (chromiumPathFrom(env) reads TOOLGATE_CHROMIUM_PATH). */
  executablePath?: string;
  /** Renders at once; more wait in a queue, each within its own timeout. Default 4. */
  maxConcurrent?: number;
  log?: Logger;
}

export type RendererAvailability = { available: true } | { available: false; reason: string };

export class PageRenderer {
  readonly executablePath: string;
  private readonly gate: ConcurrencyGate;
  private readonly log: Logger;
  private executableProblem: Promise<string | undefined> | undefined;
  private browserLaunch: Promise<Browser> | undefined;
  private launchFailure: string | undefined;
  private closed = false;

  constructor(options: PageRendererOptions = {}) {
    this.executablePath = options.executablePath ?? DEFAULT_CHROMIUM_PATH;
    this.gate = new ConcurrencyGate(options.maxConcurrent ?? DEFAULT_MAX_CONCURRENT_RENDERS);
    this.log = options.log ?? silentLogger;
  }

  /**
   * Whether renders can work: the executable is checked once (cached); a failed launch is reported
   * until a later launch succeeds. Chromium itself is only started by the first render.
   */
  async availability(): Promise<RendererAvailability> {
    const missing = await this.checkExecutable();
    if (missing) return { available: false, reason: missing };
    if (this.closed) return { available: false, reason: 'the renderer was closed' };
    if (this.launchFailure) return { available: false, reason: this.launchFailure };
    return { available: true };
  }

  /** Renders running now and renders waiting for a slot. */
  load(): { active: number; queued: number } {
    return { active: this.gate.inUse, queued: this.gate.queued };
  }

  async render(url: string, options: RenderOptions): Promise<RenderedPage> {
    const target = renderableUrl(url);
    const deadline = new RenderDeadline(options.timeoutMs, options.signal);
    try {
      return await untilAborted(this.renderInSlot(target, options, deadline), deadline.signal);
    } catch (error) {
      throw deadline.endedBy() ?? (isPlaywrightTimeout(error) ? deadline.timedOut() : error);
    } finally {
      deadline.finish();
    }
  }

  /** Closes the browser; renders still running fail, later ones are refused. */
  async close(): Promise<void> {
    this.closed = true;
    const launch = this.browserLaunch;
    this.browserLaunch = undefined;
    const browser = await launch?.catch(() => undefined);
    await browser?.close().catch(() => undefined);
  }

  private async renderInSlot(target: URL, options: RenderOptions, deadline: RenderDeadline): Promise<RenderedPage> {
    const started = Date.now();
    const release = await this.gate.acquire(deadline.signal);
    let browser: Browser | undefined;
    let context: BrowserContext | undefined;
    try {
      deadline.enter('starting Chromium');
      browser = await untilAborted(this.connectedBrowser(), deadline.signal);
      deadline.enter('loading the page');
      const userAgent = options.userAgent ?? chromeUserAgent(browser.version());
      context = await browser.newContext(renderContextOptions(userAgent));
      const openContext = context;
      // Closing the context is what stops a page mid-load: every pending call on it then fails.
      const closeOnEnd = () => void openContext.close().catch(() => undefined);
      if (deadline.signal.aborted) closeOnEnd();
      else deadline.signal.addEventListener('abort', closeOnEnd, { once: true });

      const traffic = await routeThroughFetcher(context, {
        fetchResource: options.fetchResource,
        maxResources: options.maxResources ?? DEFAULT_MAX_RESOURCES,
        signal: deadline.signal,
      });
      const page = await context.newPage();
      context.on('page', (popup) => {
        if (popup !== page) void popup.close().catch(() => undefined);
      });
      const { finalUrl } = await traffic.fetchMainDocument(target.href, documentRequestHeaders(userAgent), options.mainDocument);
      const response = await page.goto(finalUrl, { waitUntil: 'domcontentloaded', timeout: deadline.timeLeftMs() });

      deadline.enter('waiting for the page to settle');
      const settledBy = await waitForPageToSettle(page, traffic, deadline.endsAt - readingReserveMs(options.timeoutMs));
      deadline.enter('reading the page');
      const document = await readDocument(page);
      const rendered: RenderedPage = {
        html: document.html,
        title: document.title,
        finalUrl: page.url(),
        status: response?.status() ?? 0,
        resources: { ...traffic.counts },
        timing: { renderMs: Date.now() - started },
        settledBy,
      };
      this.log.debug({ url: target.href, status: rendered.status, resources: rendered.resources, renderMs: rendered.timing.renderMs, settledBy }, 'page rendered');
      return rendered;
    } catch (error) {
      if (browser && !browser.isConnected() && !deadline.signal.aborted) {
        throw new RenderUnavailableError(this.closed ? 'the renderer was closed' : 'Chromium exited during the render');
      }
      throw error;
    } finally {
      await context?.close().catch(() => undefined);
      release();
    }
  }

  /** The shared browser, launched on first use and again after it crashed or disconnected. */
  private async connectedBrowser(): Promise<Browser> {
    const launch = this.browser();
    const browser = await launch;
    if (browser.isConnected()) return browser;
    // It died and the 'disconnected' event has not been handled yet.
    if (this.browserLaunch === launch) this.browserLaunch = undefined;
    return this.browser();
  }

  private browser(): Promise<Browser> {
    if (this.closed) return Promise.reject(new RenderUnavailableError('the renderer was closed'));
    if (!this.browserLaunch) {
      const launch = this.launch();
      this.browserLaunch = launch;
      const forget = () => {
        if (this.browserLaunch === launch) this.browserLaunch = undefined;
      };
      launch.then(
        (browser) =>
          browser.on('disconnected', () => {
            forget();
            if (!this.closed) this.log.warn({ executablePath: this.executablePath }, 'Chromium disconnected; the next render starts it again');
          }),
        forget,
      );
    }
    return this.browserLaunch;
  }

  private async launch(): Promise<Browser> {
    const missing = await this.checkExecutable();
    if (missing) throw new RenderUnavailableError(missing);
    try {
      const browser = await launchChromium(this.executablePath);
      this.launchFailure = undefined;
      this.log.info({ executablePath: this.executablePath, version: browser.version() }, 'Chromium started for page rendering');
      return browser;
    } catch (error) {
      this.launchFailure = `Chromium at ${this.executablePath} did not start: ${firstLine(error)}`;
      this.log.error({ executablePath: this.executablePath, err: error }, 'Chromium did not start');
      throw new RenderUnavailableError(this.launchFailure);
    }
  }

  private checkExecutable(): Promise<string | undefined> {
    this.executableProblem ??= missingExecutableReason(this.executablePath);
    return this.executableProblem;
  }
}

/** Only web pages: a file: or chrome: URL must never reach the browser (the routing sees http(s) only). */
function renderableUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`not a URL: ${url}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new TypeError(`only http and https pages can be rendered, not ${parsed.protocol}`);
  return parsed;
}

/** What Chromium itself would send for a top-level navigation. */
function documentRequestHeaders(userAgent: string): Record<string, string> {
  return {
    'user-agent': userAgent,
    accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    'upgrade-insecure-requests': '1',
  };
}

/** Time kept back from the settle wait for reading the document. */
function readingReserveMs(timeoutMs: number): number {
  return Math.min(1_000, Math.round(timeoutMs / 10));
}

async function readDocument(page: Page): Promise<{ html: string; title: string }> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await page.evaluate(() => ({ html: document.documentElement.outerHTML, title: document.title }));
    } catch (error) {
      // A script navigated the page just now: read the next document once it is there.
      if (attempt === 3 || page.isClosed()) throw error;
      await page.waitForLoadState('domcontentloaded');
    }
  }
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n').find((line) => line.trim() !== '') ?? message).trim().slice(0, 300);
}

/** playwright-core's errors.TimeoutError, known by its name so that the module loads only when a render runs. */
const isPlaywrightTimeout = (error: unknown) => error instanceof Error && error.name === 'TimeoutError';
