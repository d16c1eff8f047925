// The risk score: 0 (nothing found against the domain) to 100, the sum of the points of every
// finding below, capped. Each finding that moved it is listed; what could not be weighed (a lookup
// that failed) is listed apart so a low score is never mistaken for a clean bill.
import type { DmarcRecord } from './dmarc.ts';
import type { SpfLookupCount, SpfRecord } from './spf.ts';

export interface RiskFacts {
  exists: boolean;
  hasAddress: boolean | undefined;
  /** undefined: TXT could not be read. */
  spf: { records: number; record: SpfRecord | null; lookups: SpfLookupCount | null } | undefined;
  dmarc: { records: number; record: DmarcRecord | null } | undefined;
  /** undefined: DS could not be read. */
  dnssec: { signed: boolean; validated: boolean } | undefined;
  caaRecords: number | undefined;
  /** Days since registration; null when the registry gives no date; undefined when registration is unknown. */
  ageDays: number | null | undefined;
  daysToExpiry: number | null | undefined;
}

export interface RiskReason {
  code: string;
  points: number;
  detail: string;
}

export interface RiskScore {
  score: number;
  level: 'low' | 'medium' | 'high' | 'critical';
  reasons: RiskReason[];
  notWeighed: string[];
}

/** The table of points (docs/tools/domain-security.md repeats it). */
export const RISK_POINTS = {
  nxdomain: 90,
  registeredUnder30Days: 35,
  registeredUnder180Days: 15,
  expiresWithin30Days: 10,
  noSpf: 15,
  spfPassAll: 30,
  spfNeutralAll: 10,
  spfPermerror: 10,
  noDmarc: 15,
  dmarcNone: 10,
  dmarcPartial: 5,
  dmarcInvalid: 10,
  noDnssec: 10,
  dnssecUnvalidated: 15,
  noAddress: 5,
  noCaa: 5,
} as const;

export function scoreDomain(facts: RiskFacts): RiskScore {
  const reasons: RiskReason[] = [];
  const notWeighed: string[] = [];
  const add = (code: keyof typeof RISK_POINTS, detail: string) => reasons.push({ code, points: RISK_POINTS[code], detail });

  if (!facts.exists) {
    add('nxdomain', 'The domain does not exist in DNS (NXDOMAIN): nothing legitimate can be served or sent from it.');
    return finish(reasons, notWeighed);
  }

  if (facts.ageDays === undefined) notWeighed.push('domain age (registration data unavailable)');
  else if (facts.ageDays === null) notWeighed.push('domain age (the registry gives no registration date)');
  else if (facts.ageDays < 30) add('registeredUnder30Days', `Registered ${facts.ageDays} days ago: most phishing domains are used within days of registration.`);
  else if (facts.ageDays < 180) add('registeredUnder180Days', `Registered ${facts.ageDays} days ago (under six months).`);
  if (typeof facts.daysToExpiry === 'number' && facts.daysToExpiry < 30) {
    add('expiresWithin30Days', facts.daysToExpiry < 0 ? `The registry's expiry date passed ${-facts.daysToExpiry} days ago.` : `The registration expires in ${facts.daysToExpiry} days.`);
  }

  weighSpf(facts.spf, add, notWeighed);
  weighDmarc(facts.dmarc, add, notWeighed);

  if (facts.dnssec === undefined) notWeighed.push('DNSSEC (the DS lookup failed)');
  else if (!facts.dnssec.signed) add('noDnssec', 'No DNSSEC: no DS record at the parent zone, so answers for the domain can be forged.');
  else if (!facts.dnssec.validated) add('dnssecUnvalidated', 'DS records are published but the resolver did not validate the answers (AD flag not set).');

  if (facts.hasAddress === undefined) notWeighed.push('address records (the A and AAAA lookups failed)');
  else if (!facts.hasAddress) add('noAddress', 'No A or AAAA record: the name serves no web site.');
  if (facts.caaRecords === undefined) notWeighed.push('CAA (the lookup failed)');
  else if (facts.caaRecords === 0) add('noCaa', 'No CAA record: any certificate authority may issue certificates for the domain.');
  return finish(reasons, notWeighed);
}

function weighSpf(spf: RiskFacts['spf'], add: (code: keyof typeof RISK_POINTS, detail: string) => void, notWeighed: string[]): void {
  if (spf === undefined) return void notWeighed.push('SPF (the TXT lookup failed)');
  if (spf.records === 0) return add('noSpf', 'No SPF record: any server may send mail as this domain.');
  if (spf.records > 1) return add('spfPermerror', `${spf.records} SPF records: receivers treat that as a permanent error (RFC 7208 4.5).`);
  const record = spf.record!;
  if (record.errors.length > 0) add('spfPermerror', `The SPF record is invalid (${record.errors.join('; ')}).`);
  else if (spf.lookups?.exceeded) add('spfPermerror', `The SPF record needs ${spf.lookups.count} DNS lookups, over the limit of 10 (RFC 7208 4.6.4): a permanent error.`);
  if (record.all === '+') add('spfPassAll', 'SPF ends in +all: every server in the world is authorised to send as this domain.');
  else if (record.all === '?' || (record.all === null && record.redirect === null)) add('spfNeutralAll', `SPF ends in ${record.all === '?' ? '?all' : 'no all mechanism'}: mail from other servers is neutral, not refused.`);
}

function weighDmarc(dmarc: RiskFacts['dmarc'], add: (code: keyof typeof RISK_POINTS, detail: string) => void, notWeighed: string[]): void {
  if (dmarc === undefined) return void notWeighed.push('DMARC (the _dmarc TXT lookup failed)');
  if (dmarc.records === 0) return add('noDmarc', 'No DMARC record at _dmarc: receivers get no policy for mail that fails SPF and DKIM.');
  if (dmarc.records > 1) return add('dmarcInvalid', `${dmarc.records} DMARC records: receivers ignore them all (RFC 7489 6.6.3).`);
  const record = dmarc.record!;
  if (record.policy === null) return add('dmarcInvalid', `The DMARC record is invalid (${record.errors.join('; ')}).`);
  if (record.policy === 'none') add('dmarcNone', 'DMARC p=none: failing mail is only reported, never quarantined or rejected.');
  else if (record.pct < 100) add('dmarcPartial', `DMARC p=${record.policy} applies to ${record.pct}% of failing mail only.`);
}

function finish(reasons: RiskReason[], notWeighed: string[]): RiskScore {
  const score = Math.min(100, reasons.reduce((sum, reason) => sum + reason.points, 0));
  const level = score >= 75 ? 'critical' : score >= 50 ? 'high' : score >= 20 ? 'medium' : 'low';
  return { score, level, reasons, notWeighed };
}
