// What a caller may give as the domain: a bare name or a URL, in any case, with a trailing dot or
// in Unicode. It becomes one lower-case ASCII (punycode) name with at least two labels; addresses
// and single labels are refused, since there is nothing to check.
import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

export type DomainInput = { ok: true; domain: string } | { ok: false; message: string };

export function normalizeDomain(raw: string): DomainInput {
  const text = raw.trim();
  if (!text) return { ok: false, message: 'expected a domain name such as "example.com"' };
  const host = hostOf(text);
  if (host === undefined) return { ok: false, message: 'expected a domain name or an http(s) URL, such as "example.com"' };
  const bare = host.replace(/^\[|\]$/g, '');
  if (isIP(bare) !== 0) return { ok: false, message: `"${bare}" is an IP address; expected a domain name such as "example.com"` };
  const ascii = domainToASCII(host.toLowerCase().replace(/\.$/, ''));
  if (!ascii) return { ok: false, message: `"${host}" is not a valid domain name` };
  const labels = ascii.split('.');
  if (labels.length < 2) return { ok: false, message: `"${host}" has no dot; expected a domain name such as "example.com"` };
  if (ascii.length > 253 || !labels.every((label) => LABEL.test(label))) return { ok: false, message: `"${host}" is not a valid domain name` };
  return { ok: true, domain: ascii };
}

/** The host of a URL, or the text itself when it is a bare name (a path after it is dropped). */
function hostOf(text: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    try {
      const url = new URL(text);
      return url.protocol === 'http:' || url.protocol === 'https:' ? url.hostname : undefined;
    } catch {
      return undefined;
    }
  }
  const host = text.split(/[/?#]/, 1)[0]!;
  // "example.com:8080" as a bare name: the port goes too.
  return /^[^:]+:\d+$/.test(host) ? host.replace(/:\d+$/, '') : host;
}
