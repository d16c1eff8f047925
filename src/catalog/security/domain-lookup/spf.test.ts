import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { countSpfLookups, parseSpf, spfRecordsOf, type SpfTxtLookup } from './spf.ts';

describe('parseSpf', () => {
  test('the captured unde-pescuim.ro policy: one include (one lookup), softfail all', () => {
    const record = parseSpf('v=spf1 include:_spf.mx.cloudflare.net ~all');
    assert.equal(record.all, '~');
    assert.equal(record.lookupTerms, 1);
    assert.deepEqual(record.terms[0], { kind: 'mechanism', qualifier: '+', name: 'include', value: '_spf.mx.cloudflare.net' });
    assert.deepEqual(record.errors, []);
  });

  test('counts include, a, mx, ptr, exists and redirect; not ip4, ip6, all or exp', () => {
    // RFC 7208 appendix A style terms: a, mx, ptr, exists, include = 5; ip4/ip6/exp cost nothing.
    const record = parseSpf('v=spf1 a mx/24 ptr exists:%{i}.example.com include:example.org ip4:192.0.2.0/24 ip6:2001:db8::/32 exp=explain.example.com -all');
    assert.equal(record.lookupTerms, 5);
    assert.equal(record.all, '-');
  });

  test('redirect counts only when there is no all', () => {
    assert.equal(parseSpf('v=spf1 redirect=_spf.example.com').lookupTerms, 1);
    assert.equal(parseSpf('v=spf1 redirect=_spf.example.com').redirect, '_spf.example.com');
    assert.equal(parseSpf('v=spf1 -all redirect=_spf.example.com').lookupTerms, 0);
    assert.equal(parseSpf('v=spf1 +all').all, '+');
  });

  test('unknown mechanisms are permerrors', () => {
    assert.deepEqual(parseSpf('v=spf1 ip4:192.0.2.1 foo -all').errors, ['"foo" is not an SPF mechanism']);
  });

  test('the SPF records among TXT texts', () => {
    assert.deepEqual(spfRecordsOf(['google-site-verification=x', 'v=spf1 -all', 'v=spf10 x', 'V=SPF1 ~all']), ['v=spf1 -all', 'V=SPF1 ~all']);
  });
});

describe('countSpfLookups', () => {
  const zone = (records: Record<string, string[]>): SpfTxtLookup & { asked: string[] } => {
    const asked: string[] = [];
    const lookup = async (name: string) => {
      asked.push(name);
      const texts = records[name];
      return texts ? { texts } : { missing: 'NXDOMAIN' };
    };
    return Object.assign(lookup, { asked });
  };

  test('follows includes and redirects recursively and adds their terms', async () => {
    // 2 (include, mx) + 2 (a, include) + 1 (exists) + 0 = 5
    const lookup = zone({
      'one.example': ['v=spf1 a include:two.example -all'],
      'two.example': ['v=spf1 exists:x.example ?all'],
    });
    const count = await countSpfLookups(parseSpf('v=spf1 include:one.example mx -all'), lookup);
    assert.deepEqual({ ...count, problems: count.problems }, { count: 5, limit: 10, exceeded: false, complete: true, followed: ['one.example', 'two.example'], problems: [] });
  });

  test('stops once past the limit of 10, and says it is exceeded', async () => {
    // 4 includes at the top, each with 3 lookup terms: 4 + 3 + 3 = 10, then + 3 = 13 > 10 and it stops.
    const records: Record<string, string[]> = {};
    for (const n of [1, 2, 3, 4]) records[`i${n}.example`] = ['v=spf1 a mx ptr -all'];
    const lookup = zone(records);
    const count = await countSpfLookups(parseSpf('v=spf1 include:i1.example include:i2.example include:i3.example include:i4.example -all'), lookup);
    assert.equal(count.count, 13);
    assert.equal(count.exceeded, true);
    assert.equal(count.complete, true);
    assert.deepEqual(lookup.asked, ['i1.example', 'i2.example', 'i3.example']);
  });

  test('a target without an SPF record, a macro, a failed query and the query cap are reported', async () => {
    const lookup: SpfTxtLookup = async (name) => (name === 'down.example' ? { failed: 'DNS over HTTPS: timeout' } : { missing: 'NXDOMAIN' });
    const count = await countSpfLookups(parseSpf('v=spf1 include:gone.example include:%{d}.example include:down.example -all'), lookup);
    assert.equal(count.count, 3);
    assert.equal(count.complete, false);
    assert.deepEqual(count.problems, ['gone.example: NXDOMAIN (a permerror when evaluated)', '%{d}.example: a macro, not expanded here', 'down.example: DNS over HTTPS: timeout']);
    const capped = await countSpfLookups(parseSpf('v=spf1 include:a.example include:b.example -all'), zone({ 'a.example': ['v=spf1 -all'] }), 1);
    assert.equal(capped.complete, false);
    assert.match(capped.problems[0]!, /^b\.example: not read/);
  });
});
