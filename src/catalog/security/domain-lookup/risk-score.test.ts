import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseDmarc } from './dmarc.ts';
import { scoreDomain, type RiskFacts } from './risk-score.ts';
import { parseSpf } from './spf.ts';

const clean: RiskFacts = {
  exists: true,
  hasAddress: true,
  spf: { records: 1, record: parseSpf('v=spf1 mx -all'), lookups: { count: 1, limit: 10, exceeded: false, complete: true, followed: [], problems: [] } },
  dmarc: { records: 1, record: parseDmarc('v=DMARC1; p=reject') },
  dnssec: { signed: true, validated: true },
  caaRecords: 1,
  ageDays: 4000,
  daysToExpiry: 200,
};

describe('scoreDomain', () => {
  test('a well-kept domain scores 0, low', () => {
    assert.deepEqual(scoreDomain(clean), { score: 0, level: 'low', reasons: [], notWeighed: [] });
  });

  test('a days-old domain with +all, no DMARC and no DNSSEC: 35 + 30 + 15 + 10 = 90, critical', () => {
    const risk = scoreDomain({ ...clean, ageDays: 3, spf: { ...clean.spf!, record: parseSpf('v=spf1 +all') }, dmarc: { records: 0, record: null }, dnssec: { signed: false, validated: false } });
    assert.deepEqual(risk.reasons.map((reason) => [reason.code, reason.points]), [['registeredUnder30Days', 35], ['spfPassAll', 30], ['noDmarc', 15], ['noDnssec', 10]]);
    assert.equal(risk.score, 90);
    assert.equal(risk.level, 'critical');
  });

  test('no SPF, p=none, a partial policy, several records, too many lookups', () => {
    assert.equal(scoreDomain({ ...clean, spf: { records: 0, record: null, lookups: null } }).score, 15);
    assert.equal(scoreDomain({ ...clean, dmarc: { records: 1, record: parseDmarc('v=DMARC1; p=none') } }).score, 10);
    assert.equal(scoreDomain({ ...clean, dmarc: { records: 1, record: parseDmarc('v=DMARC1; p=quarantine; pct=25') } }).score, 5);
    assert.equal(scoreDomain({ ...clean, spf: { records: 2, record: null, lookups: null } }).reasons[0]!.code, 'spfPermerror');
    const over = scoreDomain({ ...clean, spf: { ...clean.spf!, lookups: { count: 12, limit: 10, exceeded: true, complete: true, followed: [], problems: [] } } });
    assert.match(over.reasons[0]!.detail, /needs 12 DNS lookups, over the limit of 10/);
  });

  test('NXDOMAIN stands alone; the score is capped at 100', () => {
    assert.deepEqual(scoreDomain({ ...clean, exists: false }).reasons.map((reason) => reason.code), ['nxdomain']);
    const worst = scoreDomain({ ...clean, ageDays: 1, daysToExpiry: 2, spf: { ...clean.spf!, record: parseSpf('v=spf1 +all') }, dmarc: { records: 0, record: null }, dnssec: { signed: false, validated: false }, hasAddress: false, caaRecords: 0 });
    assert.equal(worst.score, 100);
  });

  test('what could not be read is listed as not weighed, not scored', () => {
    const risk = scoreDomain({ ...clean, spf: undefined, dmarc: undefined, dnssec: undefined, caaRecords: undefined, hasAddress: undefined, ageDays: undefined, daysToExpiry: undefined });
    assert.equal(risk.score, 0);
    assert.equal(risk.notWeighed.length, 6);
  });
});
