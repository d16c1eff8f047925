// Registration data over RDAP (RFC 9083 domain object), asked of rdap.org, which redirects to the
// registry that holds the domain: `GET /domain/<name>` answers
// `{"objectClassName":"domain","ldhName",...,"events":[{"eventAction":"registration","eventDate"}...],
//   "entities":[{"roles":["registrar"],"publicIds":[{"type":"IANA Registrar ID","identifier"}],"vcardArray":["vcard",[["fn",{},"text",name]...]]}]}`.
// 404 means the registry (or rdap.org, for a TLD without RDAP) holds no such domain; errors come as
// `{"errorCode","title","description":[...]}` (RFC 9083 section 6).
import type { RawResponse } from '../http/http-types.ts';
import type { ProviderAnswer, ProviderCaller } from '../provider-call.ts';
import { defineProvider } from '../provider.ts';
import { badAnswer } from '../upstream-errors.ts';
import { isJsonObject, jsonObjectOf, looksLikeHtml, stringMember, type JsonObject } from './response-body.ts';

export const rdap = defineProvider({
  id: 'rdap',
  name: 'RDAP',
  baseUrl: { env: 'TOOLGATE_RDAP_URL', default: 'https://rdap.org' },
  timeoutMs: 8_000,
  maxBytes: 512 * 1024,
  // rdap.org is a volunteer-run redirector and registries throttle RDAP per client; ask modestly.
  rateLimit: { requests: 2, perMs: 1_000, concurrency: 2, maxQueueMs: 2_000 },
  cacheTtlMs: 6 * 60 * 60_000,
  cacheReason: 'Registrar and registration dates change rarely (a transfer, a renewal); six hours spares the registries repeated lookups.',
  staleForMs: 7 * 24 * 60 * 60_000,
  attribution: 'Registration data from the registry via RDAP (rdap.org)',
  termsUrl: 'https://about.rdap.org/',
  docsUrl: 'https://www.rfc-editor.org/rfc/rfc9083',
});

/** Hops followed: rdap.org to the registry, and once more when a registry points at another server. */
const MAX_REDIRECTS = 3;

export type RdapRegistration =
  | { found: false; reason: string }
  | {
      found: true;
      /** The name as the registry spells it, lower-cased. */
      name: string | null;
      registrar: { name: string | null; ianaId: string | null } | null;
      registered: string | null;
      expires: string | null;
      lastChanged: string | null;
      status: string[];
      /** The registry's secureDNS.delegationSigned, when it says. */
      delegationSigned: boolean | null;
    };

export async function lookupRdapDomain(caller: ProviderCaller, domain: string, signal: AbortSignal): Promise<ProviderAnswer<RdapRegistration>> {
  return caller.call(
    rdap,
    {
      path: `/domain/${encodeURIComponent(domain)}`,
      headers: { accept: 'application/rdap+json, application/json' },
      acceptStatuses: [404],
      followRedirects: MAX_REDIRECTS,
    },
    parseRdapDomain,
    signal,
  );
}

export function parseRdapDomain(response: RawResponse): RdapRegistration {
  if (response.status === 404) {
    // A 404 may come with an RFC 9083 error object, a plain page, or nothing.
    const detail = looksLikeHtml(response) || response.body.length === 0 ? undefined : errorDetail(safeObject(response));
    return { found: false, reason: `the RDAP service holds no record of this domain${detail ? ` (${detail})` : ''}` };
  }
  const body = jsonObjectOf(response, rdap.name);
  if (typeof body.errorCode === 'number') {
    throw badAnswer(rdap.name, `it answered with an error (${errorDetail(body) ?? `errorCode ${body.errorCode}`})`, response.status);
  }
  if (body.objectClassName !== 'domain') throw badAnswer(rdap.name, 'its answer is not an RDAP domain object', response.status);
  const events = Array.isArray(body.events) ? body.events.filter(isJsonObject) : [];
  const ldhName = stringMember(body, 'ldhName');
  const secureDns = isJsonObject(body.secureDNS) ? body.secureDNS : undefined;
  return {
    found: true,
    name: ldhName ? ldhName.toLowerCase() : null,
    registrar: registrarOf(body),
    registered: eventDate(events, 'registration'),
    expires: eventDate(events, 'expiration'),
    lastChanged: eventDate(events, 'last changed'),
    status: Array.isArray(body.status) ? body.status.filter((s): s is string => typeof s === 'string') : [],
    delegationSigned: typeof secureDns?.delegationSigned === 'boolean' ? secureDns.delegationSigned : null,
  };
}

function safeObject(response: RawResponse): JsonObject | undefined {
  try {
    return jsonObjectOf(response, rdap.name);
  } catch {
    return undefined;
  }
}

function errorDetail(body: JsonObject | undefined): string | undefined {
  if (!body) return undefined;
  const description = Array.isArray(body.description) ? body.description.filter((line): line is string => typeof line === 'string').join(' ') : '';
  const text = [stringMember(body, 'title'), description].filter(Boolean).join(': ');
  return text ? text.slice(0, 200) : undefined;
}

/** The first event of that action, as an ISO 8601 UTC instant. */
function eventDate(events: readonly JsonObject[], action: string): string | null {
  for (const event of events) {
    if (event.eventAction !== action) continue;
    const date = stringMember(event, 'eventDate');
    const time = date ? Date.parse(date) : Number.NaN;
    if (Number.isFinite(time)) return new Date(time).toISOString();
  }
  return null;
}

function registrarOf(body: JsonObject): { name: string | null; ianaId: string | null } | null {
  const entities = Array.isArray(body.entities) ? body.entities.filter(isJsonObject) : [];
  const registrar = entities.find((entity) => Array.isArray(entity.roles) && entity.roles.includes('registrar'));
  if (!registrar) return null;
  const publicIds = Array.isArray(registrar.publicIds) ? registrar.publicIds.filter(isJsonObject) : [];
  const ianaId = publicIds.find((id) => id.type === 'IANA Registrar ID');
  return { name: vcardText(registrar.vcardArray, 'fn') ?? vcardText(registrar.vcardArray, 'org'), ianaId: ianaId ? (stringMember(ianaId, 'identifier') ?? null) : null };
}

/** A text property of a jCard (RFC 7095): `["vcard", [[name, params, type, value], ...]]`. */
function vcardText(vcardArray: unknown, property: string): string | null {
  if (!Array.isArray(vcardArray) || !Array.isArray(vcardArray[1])) return null;
  for (const entry of vcardArray[1]) {
    if (Array.isArray(entry) && entry[0] === property && typeof entry[3] === 'string' && entry[3].trim()) return entry[3].trim();
  }
  return null;
}
