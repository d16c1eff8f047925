import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatUnits, parseUnits } from 'viem';
import { testContext } from '../../../test/support/tool-context.ts';
import type { ToolContext } from '../tool.ts';
import { fromAtomic, toAtomic } from './decimal-units.ts';
import { type CryptoUnit, cryptoUnits, unitConvertTool } from './unit-convert.ts';
import { schemaIssues } from '../../../test/support/schema-issues.ts';

const ctx: ToolContext = testContext({ signal: new AbortController().signal, now: () => new Date(), caller: { ip: '127.0.0.1' } });

interface ConvertAnswer {
  value: string;
  fromUnit: CryptoUnit;
  toUnit: CryptoUnit;
  result: string;
  asset: 'ETH' | 'USDC';
  atomic: { unit: 'wei' | 'usdc_atomic'; value: string };
  decimals: { from: number; to: number };
}

async function convert(raw: { value: string; fromUnit: string; toUnit?: string }): Promise<ConvertAnswer> {
  assert.ok(unitConvertTool.handler);
  return (await unitConvertTool.handler(unitConvertTool.input.parse(raw), ctx)) as ConvertAnswer;
}

const UINT256_MAX = '115792089237316195423570985008687907853269984665640564039457584007913129639935';

describe('convert_crypto_units: hand-checked conversions', () => {
  const cases: [value: string, from: CryptoUnit, to: CryptoUnit, result: string, atomic: string][] = [
    ['1', 'ether', 'wei', '1000000000000000000', '1000000000000000000'],
    ['1', 'wei', 'ether', '0.000000000000000001', '1'],
    ['1.5', 'usdc', 'usdc_atomic', '1500000', '1500000'],
    ['1500000', 'usdc_atomic', 'usdc', '1.5', '1500000'],
    ['123456789', 'gwei', 'ether', '0.123456789', '123456789000000000'],
    ['1', 'wei', 'gwei', '0.000000001', '1'],
    ['30.5', 'gwei', 'wei', '30500000000', '30500000000'],
    ['0.000000000000000001', 'ether', 'wei', '1', '1'],
    ['0.1', 'ether', 'gwei', '100000000', '100000000000000000'],
    ['2.5', 'ether', 'ether', '2.5', '2500000000000000000'],
    ['0', 'ether', 'wei', '0', '0'],
    ['000.000', 'usdc', 'usdc_atomic', '0', '0'],
    ['000.000', 'ether', 'gwei', '0', '0'],
    ['007.50', 'usdc', 'usdc', '7.5', '7500000'],
    ['1.000000000', 'wei', 'ether', '0.000000000000000001', '1'], // trailing zeros past the unit's decimals carry nothing
    ['0.1000000000000000000000', 'ether', 'wei', '100000000000000000', '100000000000000000'],
    [UINT256_MAX, 'wei', 'ether', '115792089237316195423570985008687907853269984665640564039457.584007913129639935', UINT256_MAX],
    [UINT256_MAX, 'wei', 'gwei', '115792089237316195423570985008687907853269984665640564039457584007913.129639935', UINT256_MAX],
    [UINT256_MAX, 'ether', 'wei', `${UINT256_MAX}000000000000000000`, `${UINT256_MAX}000000000000000000`],
    [`0000${UINT256_MAX}`, 'usdc', 'usdc', UINT256_MAX, `${UINT256_MAX}000000`],
  ];
  for (const [value, fromUnit, toUnit, result, atomic] of cases) {
    test(`${value} ${fromUnit} = ${result} ${toUnit}`, async () => {
      const answer = await convert({ value, fromUnit, toUnit });
      assert.equal(answer.result, result);
      assert.deepEqual(answer.atomic, { unit: fromUnit.startsWith('usdc') ? 'usdc_atomic' : 'wei', value: atomic });
      assert.equal(answer.value, value);
      assert.equal(answer.fromUnit, fromUnit);
      assert.equal(answer.toUnit, toUnit);
    });
  }

  test('answers with the whole report, every amount a string', async () => {
    assert.deepEqual(await convert({ value: ' 1.5 ', fromUnit: 'usdc', toUnit: 'usdc_atomic' }), {
      value: '1.5',
      fromUnit: 'usdc',
      toUnit: 'usdc_atomic',
      result: '1500000',
      asset: 'USDC',
      atomic: { unit: 'usdc_atomic', value: '1500000' },
      decimals: { from: 6, to: 0 },
    });
  });

  test('toUnit defaults to ether', async () => {
    const answer = await convert({ value: '1000000000', fromUnit: 'gwei' });
    assert.equal(answer.toUnit, 'ether');
    assert.equal(answer.result, '1');
    assert.deepEqual(answer.decimals, { from: 9, to: 18 });
  });
});

describe('convert_crypto_units agrees with viem parseUnits/formatUnits', () => {
  // Deterministic xorshift64*, so a failure names a case that reproduces.
  let state = 0x9e3779b97f4a7c15n;
  const mask64 = (1n << 64n) - 1n;
  const nextRandom = (): bigint => {
    state ^= state >> 12n;
    state ^= (state << 25n) & mask64;
    state ^= state >> 27n;
    return (state * 0x2545f4914f6cdd1dn) & mask64;
  };
  const below = (n: number) => Number(nextRandom() % BigInt(n));
  const digits = (count: number) => Array.from({ length: count }, () => String(below(10))).join('');

  /** A decimal string the from-unit accepts: up to 78 integer digits (some leading zeros), up to its decimals. */
  function randomValue(decimals: number): string {
    const integer = `${'0'.repeat(below(3))}${digits(1 + below(78))}`;
    const fractionLength = below(decimals + 1);
    return fractionLength === 0 || below(4) === 0 ? integer : `${integer}.${digits(fractionLength)}`;
  }

  const families: CryptoUnit[][] = [['wei', 'gwei', 'ether'], ['usdc_atomic', 'usdc']];
  const decimalsOf: Record<CryptoUnit, number> = { wei: 0, gwei: 9, ether: 18, usdc_atomic: 0, usdc: 6 };

  test('on 3000 random amounts across every pair of units of one asset', async () => {
    for (let i = 0; i < 3000; i += 1) {
      const family = families[below(families.length)]!;
      const fromUnit = family[below(family.length)]!;
      const toUnit = family[below(family.length)]!;
      const value = randomValue(decimalsOf[fromUnit]);
      const referenceAtomic = parseUnits(value, decimalsOf[fromUnit]);
      const answer = await convert({ value, fromUnit, toUnit });
      const where = `#${i}: ${value} ${fromUnit} -> ${toUnit}`;
      assert.equal(answer.atomic.value, referenceAtomic.toString(), where);
      assert.equal(answer.result, formatUnits(referenceAtomic, decimalsOf[toUnit]), where);
    }
  });

  test('toAtomic and fromAtomic round-trip random atomic amounts at every decimals 0-18', () => {
    for (let i = 0; i < 2000; i += 1) {
      const atomic = BigInt(digits(1 + below(96)));
      const decimals = below(19);
      const text = fromAtomic(atomic, decimals);
      assert.equal(text, formatUnits(atomic, decimals), `${atomic} / 10^${decimals}`);
      assert.equal(toAtomic(text, decimals), atomic);
    }
  });
});

describe('convert_crypto_units refuses bad input in the schema, naming the field', () => {
  const { expectIssue } = schemaIssues(unitConvertTool.input);

  const malformed: [value: unknown, message: RegExp][] = [
    ['-1', /cannot be negative/],
    ['-0.5', /cannot be negative/],
    ['1e18', /exponent notation .* write the digits out/],
    ['1.5E-6', /exponent notation/],
    ['', /expected string to have >=1 characters/],
    ['   ', /expected string to have >=1 characters/],
    ['1.2.3', /at most one "\."/],
    ['abc', /non-negative decimal number/],
    ['12a', /non-negative decimal number/],
    ['0x10', /non-negative decimal number/],
    ['+1', /no sign/],
    ['1,000', /thousands separators/],
    ['1 000', /spaces/],
    ['.5', /non-negative decimal number/],
    ['5.', /non-negative decimal number/],
    ['Infinity', /non-negative decimal number/],
    ['NaN', /non-negative decimal number/],
    ['١٢', /non-negative decimal number/], // Arabic-Indic digits
    ['1'.repeat(79), /at most 78 digits before the decimal point/],
    ['1'.repeat(101), /<=100 characters/],
    [1.5, /expected string, received number/],
  ];
  for (const [value, message] of malformed) {
    test(`value ${JSON.stringify(value)}`, () => expectIssue({ value, fromUnit: 'wei', toUnit: 'gwei' }, 'value', message));
  }

  test('more decimal places than the from-unit has', () => {
    expectIssue({ value: '1.5', fromUnit: 'wei' }, 'value', /wei is the smallest unit of ETH and has no decimal places; "1.5" has 1/);
    expectIssue({ value: '1.5', fromUnit: 'usdc_atomic', toUnit: 'usdc' }, 'value', /usdc_atomic is the smallest unit of USDC/);
    expectIssue({ value: '1.0000001', fromUnit: 'usdc', toUnit: 'usdc_atomic' }, 'value', /usdc has at most 6 decimal places; "1.0000001" has 7/);
    expectIssue({ value: '0.0000000001', fromUnit: 'gwei' }, 'value', /gwei has at most 9 decimal places/);
    expectIssue({ value: '0.0000000000000000001', fromUnit: 'ether' }, 'value', /ether has at most 18 decimal places/);
  });

  test('an ETH unit with a USDC unit, every way round', () => {
    for (const fromUnit of cryptoUnits) {
      for (const toUnit of cryptoUnits) {
        const mixed = fromUnit.startsWith('usdc') !== toUnit.startsWith('usdc');
        const result = unitConvertTool.input.safeParse({ value: '1', fromUnit, toUnit });
        assert.equal(result.success, !mixed, `${fromUnit} -> ${toUnit}`);
        if (mixed) expectIssue({ value: '1', fromUnit, toUnit }, 'toUnit', new RegExp(`cannot convert ${fromUnit} \\(\\w+\\) to ${toUnit} \\(\\w+\\): they are different assets. fromUnit and toUnit must both be`));
      }
    }
  });

  test('a USDC amount with the default toUnit (ether) says to set toUnit', () => {
    expectIssue({ value: '1', fromUnit: 'usdc' }, 'toUnit', /must both be USDC units \(usdc_atomic, usdc\); toUnit defaults to ether/);
  });

  test('unknown or missing units', () => {
    expectIssue({ value: '1', fromUnit: 'btc' }, 'fromUnit', /wei/);
    expectIssue({ value: '1', fromUnit: 'wei', toUnit: 'sat' }, 'toUnit', /wei/);
    expectIssue({ value: '1' }, 'fromUnit', /expected one of/);
    expectIssue({ fromUnit: 'wei' }, 'value', /expected string/);
  });
});
