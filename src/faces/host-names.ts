// Host names as the DNS-rebinding checks of the faces read them (MCP origin guard, dashboard access).

/** The loopback names every face accepts without configuration. */
export const LOOPBACK_NAMES: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** The name of a Host header without its port, lower-cased; an IPv6 literal keeps its brackets. */
export function hostnameOf(hostHeader: string): string {
  const lower = hostHeader.toLowerCase();
  if (lower.startsWith('[')) return lower.slice(0, lower.indexOf(']') + 1);
  return lower.split(':')[0] ?? '';
}
