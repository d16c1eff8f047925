import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { dmarcRecordsOf, parseDmarc } from './dmarc.ts';

describe('parseDmarc', () => {
  test('the captured _dmarc.unde-pescuim.ro record: p=none, sp defaults to p, strict alignment', () => {
    assert.deepEqual(parseDmarc('v=DMARC1; p=none; rua=mailto:contact@unde-pescuim.ro; adkim=s; aspf=s; pct=100'), {
      text: 'v=DMARC1; p=none; rua=mailto:contact@unde-pescuim.ro; adkim=s; aspf=s; pct=100',
      policy: 'none',
      subdomainPolicy: 'none',
      pct: 100,
      rua: ['mailto:contact@unde-pescuim.ro'],
      ruf: [],
      adkim: 's',
      aspf: 's',
      fo: '0',
      errors: [],
    });
  });

  test('defaults and explicit sp, pct and reporting lists (RFC 7489 section 6.3)', () => {
    const record = parseDmarc('v=DMARC1; p=reject; sp=quarantine; pct=20; rua=mailto:a@example.com, mailto:b@example.net; ruf=mailto:f@example.com; fo=1');
    assert.equal(record.policy, 'reject');
    assert.equal(record.subdomainPolicy, 'quarantine');
    assert.equal(record.pct, 20);
    assert.deepEqual(record.rua, ['mailto:a@example.com', 'mailto:b@example.net']);
    assert.deepEqual(record.ruf, ['mailto:f@example.com']);
    assert.equal(record.adkim, 'r');
    assert.equal(record.fo, '1');
  });

  test('a missing or unknown policy and a bad pct are errors', () => {
    assert.deepEqual(parseDmarc('v=DMARC1; rua=mailto:a@example.com').errors, ['no p= tag (the policy is required)']);
    assert.deepEqual(parseDmarc('v=DMARC1; p=block; pct=150').errors, ['p=block is not none, quarantine or reject', 'pct=150 is not 0-100']);
  });

  test('the DMARC records among TXT texts', () => {
    assert.deepEqual(dmarcRecordsOf(['v=DMARC1; p=none', 'v=spf1 -all', 'v=DMARC1']), ['v=DMARC1; p=none', 'v=DMARC1']);
  });
});
