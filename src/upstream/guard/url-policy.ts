// The checks of a caller's URL that need no DNS: its form, scheme, credentials, port, and a host
// that is an IP literal or a localhost name. WHATWG URL parsing has already turned decimal, octal,
// hex and shortened IPv4 forms (http://2130706433/, http://0x7f.1/) into dotted quads.
import { isIP } from 'node:net';
import type { GuardPolicy, RefusalReason } from './guard-types.ts';
import { describeForbidden, parseAllowList, whyForbidden } from './address-policy.ts';

export type UrlVerdict = { ok: true; url: URL } | { ok: false; reason: RefusalReason; message: string };

const defaultPorts: Readonly<Record<string, number>> = { 'http:': 80, 'https:': 443 };

const ONLY_PUBLIC = 'only public internet addresses can be fetched';

export function checkCallerUrl(raw: string | URL, policy: Pick<GuardPolicy, 'allowedPorts' | 'allow'>): UrlVerdict {
  let url: URL;
  try {
    url = new URL(typeof raw === 'string' ? raw : raw.href);
  } catch {
    return refuse('invalid_url', 'url: not an absolute URL (write it with its scheme, e.g. https://example.com/page)');
  }
  const defaultPort = defaultPorts[url.protocol];
  if (defaultPort === undefined) {
    return refuse('scheme', `url: the scheme ${url.protocol.replace(/:$/, '')} is not supported; only http and https URLs can be fetched`);
  }
  if (url.username !== '' || url.password !== '') {
    return refuse('credentials', 'url: user names and passwords in URLs are not accepted; give the URL without them');
  }
  const port = url.port === '' ? defaultPort : Number(url.port);
  if (!policy.allowedPorts.includes(port)) {
    return refuse('port', `url: port ${port} is not allowed; the ports that can be fetched are ${policy.allowedPorts.join(', ')}`);
  }
  const host = url.hostname;
  if (host === '') return refuse('invalid_url', 'url: the URL has no host');
  if (isLocalhostName(host)) return refuse('forbidden_address', `url: ${host} is a loopback name; ${ONLY_PUBLIC}`);
  const literal = host.startsWith('[') ? host.slice(1, -1) : host;
  if (isIP(literal) !== 0) {
    const verdict = whyForbidden(literal, parseAllowList(policy.allow));
    if (verdict) return refuse('forbidden_address', `url: ${verdict.address} is ${describeForbidden(verdict)}; ${ONLY_PUBLIC}`);
  }
  return { ok: true, url };
}

/** localhost, any name under it (RFC 6761), with or without the trailing root dot. */
function isLocalhostName(host: string): boolean {
  const name = host.replace(/\.+$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

function refuse(reason: RefusalReason, message: string): UrlVerdict {
  return { ok: false, reason, message };
}
