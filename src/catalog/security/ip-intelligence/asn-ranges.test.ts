import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import ipaddr from 'ipaddr.js';
import { ASN_PACKAGE } from './asn-database.ts';
import { addressToBigInt, parseAsnCsv } from './asn-ranges.ts';
import { packageFile } from './package-files.ts';

const v4 = (text: string) => addressToBigInt(ipaddr.IPv4.parse(text).toByteArray());
const v6 = (text: string) => addressToBigInt(ipaddr.IPv6.parse(text).toByteArray());

describe('addressToBigInt', () => {
  test('matches the numbers in the ASN files (hand-checked: 1.0.0.0 = 2^24, 2001:200:: = 0x20010200 << 96)', () => {
    assert.equal(v4('1.0.0.0'), 16777216n);
    assert.equal(v4('255.255.255.255'), 4294967295n);
    assert.equal(v6('2001:200::'), 0x20010200n << 96n);
    assert.equal(v6('2001:200::'), 42540528726795050063891204319802818560n); // the README's own example
    assert.equal(v6('ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'), (1n << 128n) - 1n);
  });
});

describe('parseAsnCsv on a small table', () => {
  const csv4 = [
    '16777216,16777471,13335,"Cloudflare, Inc."',
    '16778240,16779263,38803,Gtelecom Pty Ltd',
    '35309568,35313663,201907,"LLC ""SPUTNIK"""',
    '4294967040,4294967295,64512,Last Block\r',
    '',
  ].join('\n');

  test('finds the range holding an address, inclusive at both ends', async () => {
    const table = await parseAsnCsv(csv4, 4);
    assert.equal(table.size, 4);
    assert.deepEqual(table.lookup(v4('1.0.0.0')), { number: 13335, organization: 'Cloudflare, Inc.' });
    assert.deepEqual(table.lookup(v4('1.0.0.255'))?.number, 13335);
    assert.deepEqual(table.lookup(v4('1.0.4.0'))?.organization, 'Gtelecom Pty Ltd');
    assert.deepEqual(table.lookup(v4('1.0.7.255'))?.number, 38803);
    assert.deepEqual(table.lookup(v4('255.255.255.255')), { number: 64512, organization: 'Last Block' });
  });

  test('answers null before the first range, in gaps and after the last range', async () => {
    const table = await parseAsnCsv(csv4, 4);
    assert.equal(table.lookup(v4('0.255.255.255')), null);
    assert.equal(table.lookup(v4('1.0.1.0')), null);
    assert.equal(table.lookup(v4('1.0.8.0')), null);
    assert.equal(table.lookup(v4('255.255.254.255')), null);
  });

  test('unquotes CSV fields, doubled quotes included', async () => {
    const table = await parseAsnCsv(csv4, 4);
    assert.equal(table.lookup(v4('2.26.200.1'))?.organization, 'LLC "SPUTNIK"');
  });

  test('IPv6 ranges that differ only in the low 64 bits are told apart', async () => {
    const start = v6('2001:500:30ff::');
    const csv6 = [
      `${start},${v6('2001:500:30ff::2f')},396585,VeriSign Global Registry Services`,
      `${v6('2001:500:30ff::30')},${v6('2001:500:30ff::30')},396552,VeriSign Global Registry Services`,
      `${v6('2001:500:30ff::31')},${v6('2001:500:30ff:ffff:ffff:ffff:ffff:ffff')},396585,VeriSign Global Registry Services`,
      `${v6('2a01:4f8::')},${v6('2a01:4f9:ffff:ffff:ffff:ffff:ffff:ffff')},24940,Hetzner Online GmbH`,
    ].join('\n');
    const table = await parseAsnCsv(csv6, 6);
    assert.equal(table.lookup(v6('2001:500:30ff::2f'))?.number, 396585);
    assert.equal(table.lookup(v6('2001:500:30ff::30'))?.number, 396552);
    assert.equal(table.lookup(v6('2001:500:30ff::31'))?.number, 396585);
    assert.equal(table.lookup(v6('2001:500:30fe:ffff:ffff:ffff:ffff:ffff')), null);
    assert.equal(table.lookup(v6('2a01:4f9:1::1'))?.number, 24940);
    assert.equal(table.lookup(v6('2a01:4fa::')), null);
  });

  test('a malformed line is an error naming the line', async () => {
    await assert.rejects(parseAsnCsv('16777216,16777471,13335,ok\nnot a row\n', 4), /IPv4 line 2/);
    await assert.rejects(parseAsnCsv('16777216,16777471,AS13335,ok\n', 4), /IPv4 line 1/);
  });
});

/**
 * The shipped files against a naive reference: split every line, compare as BigInt, scan linearly.
 * Samples are spread over the whole address space plus the first and last address of random rows.
 */
describe('parseAsnCsv on the shipped data agrees with a linear scan', () => {
  for (const family of [4, 6] as const) {
    test(`IPv${family}`, async () => {
      const text = readFileSync(packageFile(ASN_PACKAGE, `asn-ipv${family}-num.csv`), 'utf8');
      const rows = text.split('\n').filter(Boolean).map((line) => {
        const [first, last, asn] = line.split(',');
        return { first: BigInt(first!), last: BigInt(last!), asn: Number(asn) };
      });
      const table = await parseAsnCsv(text, family);
      assert.equal(table.size, rows.length);

      const bits = family === 4 ? 32n : 128n;
      let seed = 0x2545f491;
      const random = () => {
        seed = (seed * 1103515245 + 12345) >>> 0;
        return seed;
      };
      const randomAddress = () => {
        let value = 0n;
        for (let i = 0n; i < bits; i += 32n) value = (value << 32n) | BigInt(random());
        return value;
      };
      const samples: bigint[] = [];
      for (let i = 0; i < 40; i += 1) {
        samples.push(randomAddress());
        const row = rows[random() % rows.length]!;
        samples.push(row.first, row.last, row.last + 1n);
      }
      for (const address of samples) {
        // The data has one pair of overlapping IPv4 rows; the table, like this scan, takes the later one.
        let expected: number | null = null;
        for (const row of rows) if (row.first <= address && address <= row.last) expected = row.asn;
        assert.equal(table.lookup(address)?.number ?? null, expected, `address ${address}`);
      }
    });
  }
});
