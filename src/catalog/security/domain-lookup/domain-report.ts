// One domain check: the DNS queries and the RDAP lookup at once, SPF includes followed, then the
// report and its score. RDAP failing alone leaves registration unknown; DNS failing entirely fails
// the call (the layer's 502/503/504, never charged).
import { getDomain } from 'tldts';
import type { ProviderAnswer, ProviderCaller } from '../../../upstream/provider-call.ts';
import type { SourceNote } from '../../../upstream/provider.ts';
import { queryDns, txtText, type DnsAnswer, type DnsType } from '../../../upstream/providers/doh.ts';
import { lookupRdapDomain, type RdapRegistration } from '../../../upstream/providers/rdap.ts';
import { combinedFailure, UpstreamError } from '../../../upstream/upstream-errors.ts';
import { caaOf, dnskeyOf, dsOf, hostName, mxOf, parsedAll } from './dns-records.ts';
import { dmarcRecordsOf, parseDmarc } from './dmarc.ts';
import { scoreDomain, type RiskFacts } from './risk-score.ts';
import { countSpfLookups, parseSpf, spfRecordsOf, type SpfTxtLookup } from './spf.ts';

const DAY_MS = 24 * 60 * 60_000;
/** At most this many include/redirect targets are read to count SPF lookups. */
const MAX_SPF_QUERIES = 10;

interface Query {
  key: string;
  name: (domain: string) => string;
  type: DnsType;
}

const QUERIES: readonly Query[] = [
  { key: 'A', name: (d) => d, type: 'A' },
  { key: 'AAAA', name: (d) => d, type: 'AAAA' },
  { key: 'MX', name: (d) => d, type: 'MX' },
  { key: 'NS', name: (d) => d, type: 'NS' },
  { key: 'CAA', name: (d) => d, type: 'CAA' },
  { key: 'TXT', name: (d) => d, type: 'TXT' },
  { key: '_dmarc TXT', name: (d) => `_dmarc.${d}`, type: 'TXT' },
  { key: 'DS', name: (d) => d, type: 'DS' },
  { key: 'DNSKEY', name: (d) => d, type: 'DNSKEY' },
];

type Outcome = { ok: true; answer: DnsAnswer; source: SourceNote } | { ok: false; error: UpstreamError };

export interface DomainCheckContext {
  upstream: ProviderCaller;
  signal: AbortSignal;
  now: () => Date;
}

export async function checkDomain(domain: string, ctx: DomainCheckContext) {
  const registrable = getDomain(domain, { allowPrivateDomains: false }) ?? domain;
  const [outcomes, registration] = await Promise.all([
    Promise.all(QUERIES.map((query) => settle(queryDns(ctx.upstream, query.name(domain), query.type, ctx.signal)))),
    settle(lookupRdapDomain(ctx.upstream, registrable, ctx.signal)),
  ]);
  const byKey = new Map(QUERIES.map((query, index) => [query.key, outcomes[index]!]));
  const failures = outcomes.filter((outcome): outcome is { ok: false; error: UpstreamError } => !outcome.ok).map((outcome) => outcome.error);
  if (failures.length === outcomes.length) throw combinedFailure('Every DNS query failed', dedupeFailures(failures));

  const answerOf = (key: string) => {
    const outcome = byKey.get(key);
    return outcome?.ok ? outcome.answer : undefined;
  };
  const sources: SourceNote[] = outcomes.flatMap((outcome) => (outcome.ok ? [outcome.source] : []));
  if (registration.ok) sources.push(registration.source);
  const unavailable = QUERIES.flatMap((query) => {
    const outcome = byKey.get(query.key)!;
    return outcome.ok ? [] : [{ query: `${query.name(domain)} ${query.type}`, reason: outcome.error.message }];
  });

  // The apex answers say whether the name exists; the _dmarc name's NXDOMAIN says nothing about it.
  const apex = QUERIES.filter((query) => query.name(domain) === domain).map((query) => answerOf(query.key)).filter((answer) => answer !== undefined);
  const exists = !apex.some((answer) => answer.status === 3);
  const registrationReport = registrationOf(registration, registrable, ctx.now());

  if (!exists) {
    const risk = scoreDomain({ exists: false, hasAddress: false, spf: undefined, dmarc: undefined, dnssec: undefined, caaRecords: undefined, ageDays: undefined, daysToExpiry: undefined });
    return { domain, registrableDomain: registrable, exists: false, message: 'The domain does not exist in DNS (NXDOMAIN).', registration: registrationReport, risk, unavailable, sources };
  }

  const values = (key: string) => answerOf(key)?.records.map((record) => record.data);
  const txt = values('TXT')?.map(txtText);
  const dmarcTexts = values('_dmarc TXT')?.map(txtText);
  const spf = txt === undefined ? undefined : await spfReport(txt, ctx);
  const dmarc = dmarcTexts === undefined ? undefined : dmarcReport(dmarcTexts);
  const dnssec = dnssecReport(answerOf('DS'), answerOf('DNSKEY'), answerOf('A'), registration.ok && registration.value.found ? registration.value.delegationSigned : null);
  const a = values('A');
  const aaaa = values('AAAA');
  const caa = values('CAA');

  const facts: RiskFacts = {
    exists: true,
    hasAddress: a === undefined && aaaa === undefined ? undefined : (a?.length ?? 0) + (aaaa?.length ?? 0) > 0,
    spf: spf && { records: spf.records.length, record: spf.parsed, lookups: spf.lookups },
    dmarc: dmarc && { records: dmarc.records.length, record: dmarc.parsed },
    dnssec: dnssec && { signed: dnssec.signed, validated: dnssec.validated },
    caaRecords: caa?.length,
    ageDays: registrationReport.available ? registrationReport.ageDays : undefined,
    daysToExpiry: registrationReport.available ? registrationReport.daysToExpiry : undefined,
  };

  return {
    domain,
    registrableDomain: registrable,
    exists: true,
    dns: {
      a: a ?? null,
      aaaa: aaaa ?? null,
      mx: values('MX') && parsedAll(values('MX')!, mxOf).sort((x, y) => x.priority - y.priority),
      ns: values('NS')?.map(hostName) ?? null,
      caa: caa ? parsedAll(caa, caaOf) : null,
      txt: txt ?? null,
    },
    email: {
      spf: spf ? { found: spf.records.length > 0, records: spf.records, ...(spf.parsed ? spfDetail(spf.parsed, spf.lookups!) : {}), ...(spf.records.length > 1 ? { permerror: 'several v=spf1 records (RFC 7208 4.5)' } : {}) } : null,
      dmarc: dmarc ? { found: dmarc.records.length > 0, records: dmarc.records, ...(dmarc.parsed ? dmarcDetail(dmarc.parsed) : {}) } : null,
    },
    dnssec: dnssec ?? null,
    registration: registrationReport,
    risk: scoreDomain(facts),
    unavailable,
    sources,
  };
}

async function settle<T>(call: Promise<ProviderAnswer<T>>): Promise<{ ok: true; value: T; answer: T; source: SourceNote } | { ok: false; error: UpstreamError }> {
  try {
    const { value, source } = await call;
    return { ok: true, value, answer: value, source };
  } catch (error) {
    if (error instanceof UpstreamError) return { ok: false, error };
    throw error;
  }
}

/** Nine identical failures read as one. */
function dedupeFailures(failures: readonly UpstreamError[]): UpstreamError[] {
  const seen = new Map<string, UpstreamError>();
  for (const failure of failures) if (!seen.has(failure.message)) seen.set(failure.message, failure);
  return [...seen.values()];
}

async function spfReport(texts: readonly string[], ctx: DomainCheckContext) {
  const records = spfRecordsOf(texts);
  if (records.length !== 1) return { records, parsed: null, lookups: null };
  const parsed = parseSpf(records[0]!);
  const lookup: SpfTxtLookup = async (name) => {
    try {
      const { value } = await queryDns(ctx.upstream, name, 'TXT', ctx.signal);
      if (value.status === 3) return { missing: 'NXDOMAIN' };
      if (value.status !== 0) return { failed: `the resolver answered ${value.statusName}` };
      return { texts: value.records.map((record) => txtText(record.data)) };
    } catch (error) {
      if (error instanceof UpstreamError) return { failed: error.message.replace(' You were not charged.', '') };
      throw error;
    }
  };
  return { records, parsed, lookups: await countSpfLookups(parsed, lookup, MAX_SPF_QUERIES) };
}

function spfDetail(record: ReturnType<typeof parseSpf>, lookups: Awaited<ReturnType<typeof countSpfLookups>>) {
  return {
    mechanisms: record.terms.filter((term) => term.kind === 'mechanism').map(({ qualifier, name, value }) => ({ qualifier, mechanism: name, value })),
    modifiers: record.terms.filter((term) => term.kind === 'modifier').map(({ name, value }) => ({ modifier: name, value })),
    all: record.all,
    lookups,
    errors: record.errors,
  };
}

function dmarcReport(texts: readonly string[]) {
  const records = dmarcRecordsOf(texts);
  return { records, parsed: records.length === 1 ? parseDmarc(records[0]!) : null };
}

function dmarcDetail(record: ReturnType<typeof parseDmarc>) {
  const { text: _text, ...fields } = record;
  return fields;
}

function dnssecReport(ds: DnsAnswer | undefined, dnskey: DnsAnswer | undefined, a: DnsAnswer | undefined, delegationSigned: boolean | null) {
  if (!ds) return undefined;
  const dsRecords = parsedAll(ds.records.map((record) => record.data), dsOf);
  const keys = dnskey ? parsedAll(dnskey.records.map((record) => record.data), dnskeyOf) : null;
  const signed = dsRecords.length > 0;
  // AD on the DS answer (and the apex answers) means the resolver validated the chain down to them.
  const validated = signed && ds.authenticated && (dnskey?.authenticated ?? true);
  return {
    signed,
    validated,
    status: !signed ? 'unsigned' : validated ? 'secure' : 'unvalidated',
    resolverValidated: { ds: ds.authenticated, dnskey: dnskey?.authenticated ?? null, a: a?.authenticated ?? null },
    ds: dsRecords,
    dnskey: keys,
    registrySaysSigned: delegationSigned,
  };
}

function registrationOf(outcome: { ok: true; value: RdapRegistration } | { ok: false; error: UpstreamError }, registrable: string, now: Date) {
  if (!outcome.ok) {
    return { available: false as const, domain: registrable, reason: `Registration data unavailable: ${outcome.error.message.replace(' You were not charged.', '')}` };
  }
  const registration = outcome.value;
  if (!registration.found) return { available: false as const, domain: registrable, reason: `Registration unknown: ${registration.reason}. Some TLDs publish no RDAP service.` };
  const ageDays = registration.registered ? Math.floor((now.getTime() - Date.parse(registration.registered)) / DAY_MS) : null;
  const daysToExpiry = registration.expires ? Math.floor((Date.parse(registration.expires) - now.getTime()) / DAY_MS) : null;
  return {
    available: true as const,
    domain: registrable,
    registrar: registration.registrar,
    registered: registration.registered,
    expires: registration.expires,
    lastChanged: registration.lastChanged,
    ageDays,
    daysToExpiry,
    status: registration.status,
  };
}
