// After DOMContentLoaded a script-built page is still filling itself in. It is taken as done when
// the load event has fired and no request has been in flight for a while; or, for pages that never
// stop talking to the network (polling, analytics), when scripts grew the body's text and then left
// it unchanged for a while. Otherwise the wait ends at the deadline.
import type { Page } from 'playwright-core';
import type { SettledBy } from './render-types.ts';
import type { RoutedTraffic } from './resource-routing.ts';

export const NETWORK_QUIET_MS = 500;
export const TEXT_STEADY_MS = 1_500;
const POLL_MS = 100;
const TEXT_POLL_MS = 250;

export async function waitForPageToSettle(page: Page, traffic: RoutedTraffic, deadline: number): Promise<SettledBy> {
  let loadedAt: number | undefined;
  page.waitForLoadState('load', { timeout: Math.max(1, deadline - Date.now()) }).then(
    () => (loadedAt = Date.now()),
    () => undefined,
  );
  const text = new TextGrowth();
  let textCheckedAt = 0;
  for (;;) {
    const now = Date.now();
    if (now >= deadline) return 'deadline';
    // Quiet is counted from the load event at the earliest: a request a script sends during
    // loading may reach the route handler a little later.
    if (loadedAt !== undefined && traffic.inFlight() === 0 && now - Math.max(traffic.lastActivityAt(), loadedAt) >= NETWORK_QUIET_MS) return 'network_idle';
    if (now - textCheckedAt >= TEXT_POLL_MS) {
      textCheckedAt = now;
      text.observe(await bodyTextLength(page), Date.now());
      if (text.steadyAfterGrowth(Date.now())) return 'text_steady';
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, Math.max(0, deadline - Date.now()))));
  }
}

/** Whether scripts changed the text since the first look, and when it last changed. */
class TextGrowth {
  private length: number | undefined;
  private changedAt: number | undefined;

  observe(length: number, at: number): void {
    if (this.length !== undefined && (length === -1 || length !== this.length)) this.changedAt = at;
    this.length = length;
  }

  steadyAfterGrowth(now: number): boolean {
    return this.changedAt !== undefined && this.length !== -1 && now - this.changedAt >= TEXT_STEADY_MS;
  }
}

/** -1 while the page is between documents (a script navigated it), which counts as a change. */
async function bodyTextLength(page: Page): Promise<number> {
  try {
    return await page.evaluate(() => document.body?.textContent?.length ?? 0);
  } catch (error) {
    if (page.isClosed()) throw error;
    return -1;
  }
}
