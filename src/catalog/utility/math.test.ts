import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { testContext } from '../../../test/support/tool-context.ts';
import type { ToolContext } from '../tool.ts';
import { ToolError } from '../tool.ts';
import { MAX_NESTING } from './math-expression.ts';
import { MATH_TIME_LIMIT_MS, mathTool, mathWorkers } from './math.ts';
import { schemaIssues } from '../../../test/support/schema-issues.ts';

const ctx = (signal = new AbortController().signal): ToolContext => (testContext({ signal, now: () => new Date('2025-01-01T00:00:00Z'), caller: { ip: '127.0.0.1' } }));

interface FormulaAnswer {
  type: 'formula';
  inputs: { expression: string; params?: Record<string, string> };
  result: string;
  resultType: string;
  approximate: number | null;
  method: { engine: string; arithmetic: string };
}
interface FinanceAnswer {
  type: string;
  inputs: Record<string, unknown>;
  result: string;
  breakdown: Record<string, unknown> & { atomic?: { amountOut: string; minimumAmountOut: string } | null };
  formula: string;
  method: Record<string, string>;
}

async function calculate<T = FormulaAnswer>(raw: unknown, context = ctx()): Promise<T> {
  assert.ok(mathTool.handler);
  return (await mathTool.handler(mathTool.input.parse(raw), context)) as T;
}
const formula = (expression: string, params?: Record<string, unknown>) => calculate({ expression, ...(params ? { params } : {}) });

async function failure(raw: unknown): Promise<{ error: ToolError; ms: number }> {
  const started = performance.now();
  const error = await calculate(raw).then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof ToolError, `expected a ToolError, got ${String(error)}`);
  return { error, ms: performance.now() - started };
}

// ---- An independent reference: exact rationals in BigInt, rounded to 64 significant digits ----
// (half away from zero, as the tool says it rounds), written in plain notation.

const pow10 = (n: number) => 10n ** BigInt(n);

/** numerator/denominator (positive) to `digits` significant digits, plain decimal notation, no trailing zeros. */
function significant(numerator: bigint, denominator: bigint, digits = 64): string {
  assert.ok(numerator > 0n && denominator > 0n);
  // Find k with 10^(digits-1) <= numerator·10^k / denominator < 10^digits.
  let k = digits - (numerator.toString().length - denominator.toString().length) - 1;
  const scaledAt = (shift: number) => (shift >= 0 ? (numerator * pow10(shift)) : numerator) / (shift >= 0 ? denominator : denominator * pow10(-shift));
  while (scaledAt(k) >= pow10(digits)) k -= 1;
  while (scaledAt(k) < pow10(digits - 1)) k += 1;
  const top = k >= 0 ? numerator * pow10(k) : numerator;
  const bottom = k >= 0 ? denominator : denominator * pow10(-k);
  let scaled = top / bottom;
  if (2n * (top % bottom) >= bottom) scaled += 1n;
  if (scaled === pow10(digits)) {
    scaled /= 10n;
    k -= 1;
  }
  let text = scaled.toString();
  if (k <= 0) return (text + '0'.repeat(-k));
  if (text.length <= k) text = '0'.repeat(k - text.length + 1) + text;
  const point = text.length - k;
  return `${text.slice(0, point)}.${text.slice(point)}`.replace(/\.?0+$/, '');
}

/** A published digit string such as "3.14159..." rounded to 64 significant digits. */
function publishedTo64(digits: string): string {
  const [integer, fraction = ''] = digits.split('.');
  return significant(BigInt(`${integer}${fraction}`), pow10(fraction.length));
}

function integerSqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = n;
  let y = (x + 1n) / 2n;
  while (y < x) {
    x = y;
    y = (x + n / x) / 2n;
  }
  return x;
}

describe('the BigInt reference itself (hand-checked)', () => {
  test('rounds half away from zero at the 64th digit and writes plain decimals', () => {
    assert.equal(significant(2n, 3n), `0.${'6'.repeat(63)}7`);
    assert.equal(significant(1n, 8n), '0.125');
    assert.equal(significant(1331n, 1n), '1331');
    assert.equal(significant(1n, 7n, 6), '0.142857');
    assert.equal(significant(15n, 10n, 1), '2');
    assert.equal(significant(999n, 1000n, 2), '1');
  });
});

describe('calculate_math formula: against published digits and exact BigInt arithmetic', () => {
  test('the example: 1000·1.05^10 = 1628.89462677744140625 exactly (105^10 / 100^10)', async () => {
    const answer = await calculate(mathTool.example);
    assert.equal(answer.result, significant(105n ** 10n * 1000n, 100n ** 10n));
    assert.equal(answer.result, '1628.89462677744140625');
    assert.equal(answer.resultType, 'BigNumber');
    assert.equal(answer.approximate, 1628.89462677744140625);
    assert.deepEqual(answer.inputs, { expression: '(1 + 0.05)^10 * 1000' });
    assert.equal(answer.type, 'formula');
    assert.match(answer.method.engine, /^mathjs 15\.2\.0 expression parser$/);
    assert.match(answer.method.arithmetic, /BigNumber \(decimal\.js\): every operation rounded to 64 significant digits, ties away from zero/);
  });

  test('decimal, not binary: 0.1 + 0.2 = 0.3', async () => {
    assert.equal((await formula('0.1 + 0.2')).result, '0.3');
    assert.equal((await formula('1.1 * 1.1')).result, '1.21');
  });

  const rationals: [string, bigint, bigint][] = [
    ['2/3', 2n, 3n],
    ['1/7', 1n, 7n],
    ['1/3 + 1/6', 1n, 2n],
    ['123456 * 1', 123456n, 1n],
    ['factorial(30)', Array.from({ length: 30 }, (_, i) => BigInt(i + 1)).reduce((a, b) => a * b), 1n],
    ['2^100 / 3^20', 2n ** 100n, 3n ** 20n],
  ];
  for (const [expression, numerator, denominator] of rationals) {
    test(`${expression} = ${numerator}/${denominator} to 64 digits`, async () => {
      assert.equal((await formula(expression)).result, significant(numerator, denominator));
    });
  }

  test('every operation rounds to 64 digits, so a chain of them is within a few units of the 64th digit', async () => {
    // (1 + 0.05/12)^12: 0.05/12 does not terminate, so 1 + 0.05/12 is rounded, and the power carries that on.
    const result = (await formula('(1 + 0.05/12)^12')).result;
    const [integer, fraction = ''] = result.split('.');
    const actual = BigInt(`${integer}${fraction}`);
    const scale = pow10(fraction.length);
    const exact = [241n ** 12n, 240n ** 12n] as const;
    const difference = actual * exact[1] - exact[0] * scale; // (actual - exact) · scale · 240^12
    const bound = exact[0] * scale / pow10(61); // 1e-61 relative
    assert.ok(difference < bound && -difference < bound, `${result} is within 1e-61 of 241^12/240^12`);
    assert.notEqual(result, significant(...exact), 'and it is not exact here: the test would not notice otherwise');
  });

  test('2^200 is exact (61 digits), written with an exponent beyond 1e40', async () => {
    const digits = (2n ** 200n).toString();
    assert.equal((await formula('2^200')).result, `${digits[0]}.${digits.slice(1).replace(/0+$/, '')}e+${digits.length - 1}`);
    assert.equal((await formula('10^39')).result, `1${'0'.repeat(39)}`);
    assert.equal((await formula('10^40')).result, '1e+40');
  });

  // OEIS A000796 (pi), A001113 (e), A002193 (sqrt 2), A002162 (log 2).
  const published: [string, string][] = [
    ['pi', '3.14159265358979323846264338327950288419716939937510582097494459230781640628620899862803482534211706798'],
    ['e', '2.71828182845904523536028747135266249775724709369995957496696762772407663035354759457138217852516642742746'],
    ['sqrt(2)', '1.41421356237309504880168872420969807856967187537694807317667973799073247846210703885038753432764157'],
    ['log(2)', '0.69314718055994530941723212145817656807550013436025525412068000949339362196969471560586332699641868754200148'],
  ];
  for (const [expression, digits] of published) {
    test(`${expression} matches its published digits`, async () => {
      assert.equal((await formula(expression)).result, publishedTo64(digits));
    });
  }

  test('sqrt(1.05) against an integer square root', async () => {
    const root = integerSqrt(105n * pow10(140)); // floor(sqrt(105)·10^70)
    assert.equal((await formula('sqrt(1.05)')).result, significant(root, pow10(71)));
  });

  test('units, matrices, complex numbers and booleans, hand-checked', async () => {
    const inch = await formula('5 cm to inch');
    assert.equal(inch.result, `${significant(500n, 254n)} inch`); // 1 inch = 2.54 cm exactly
    assert.equal(inch.resultType, 'Unit');
    assert.equal(inch.approximate, null);
    assert.equal((await formula('det([1, 2; 3, 4])')).result, '-2');
    assert.equal((await formula('[1, 2; 3, 4] * [5; 6]')).result, '[[17], [39]]');
    const complex = await formula('sqrt(-4)');
    assert.deepEqual([complex.result, complex.resultType], ['2i', 'Complex']);
    const bool = await formula('1 < 2 and 3 >= 3');
    assert.deepEqual([bool.result, bool.resultType, bool.approximate], ['true', 'boolean', null]);
  });

  test('variables from params, several statements, the last one is the result', async () => {
    const answer = await formula('P * (1 + r)^n', { P: 1000, r: '0.05', n: 10 });
    assert.equal(answer.result, '1628.89462677744140625');
    assert.deepEqual(answer.inputs, { expression: 'P * (1 + r)^n', params: { P: '1000', r: '0.05', n: '10' } });
    assert.equal((await formula('a = 3; b = a^2\nb + 1')).result, '10');
    assert.equal((await formula('x = 5;')).result, '5');
    // A JSON number is read by its shortest decimal form, so 0.1 is one tenth, not the double nearest to it.
    assert.equal((await formula('r * 3', { r: 0.1 })).result, '0.3');
  });

  test('ties round away from zero; edge values are written, not thrown', async () => {
    assert.equal((await formula('round(2.5)')).result, '3');
    assert.equal((await formula('round(-2.5)')).result, '-3');
    assert.equal((await formula('3e-20')).result, '0.00000000000000000003');
    assert.equal((await formula('3e-21')).result, '3e-21');
    const infinite = await formula('1/0');
    assert.deepEqual([infinite.result, infinite.approximate], ['Infinity', null]);
    assert.equal((await formula('9^9^9^9')).result, 'Infinity');
  });

  test('the same input always gives the same answer', async () => {
    const first = await formula('sin(1)^2 + cos(1)^2 + exp(pi) / 7');
    assert.deepEqual(await formula('sin(1)^2 + cos(1)^2 + exp(pi) / 7'), first);
  });
});

describe('calculate_math compound_interest', () => {
  const compound = (params: Record<string, unknown>) => calculate<FinanceAnswer>({ type: 'compound_interest', params });

  test('$10,000 at 5 % compounded monthly for 10 years: the textbook $16,470.09, to 64 digits', async () => {
    const answer = await compound({ principal: 10000, rate: 0.05, periods: 12, time: 10 });
    assert.equal(answer.result.slice(0, 8), '16470.09');
    // Exact: 10000·(241/240)^120.
    assert.equal(answer.result, significant(10000n * 241n ** 120n, 240n ** 120n));
    assert.equal(answer.breakdown.finalAmount, answer.result);
    assert.equal(answer.breakdown.interest, significant(10000n * 241n ** 120n - 10000n * 240n ** 120n, 240n ** 120n));
    assert.equal(answer.breakdown.effectiveAnnualRate, significant(241n ** 12n - 240n ** 12n, 240n ** 12n));
    assert.equal(answer.breakdown.totalPeriods, '120');
    assert.deepEqual(answer.inputs, { principal: '10000', rate: '0.05', time: '10', periods: 12 });
    assert.equal(answer.formula, 'A = P·(1 + r/n)^(n·t), n = periods per year, t = years');
    assert.match(answer.method.arithmetic ?? '', /84 significant digits, each figure then rounded to 64/);
  });

  test('hand-checked: 1000 at 10 % yearly for 3 years is 1331; quarterly 8 % for 2 years is 1000·1.02^8', async () => {
    const yearly = await compound({ principal: '1000', rate: '0.1', time: 3 });
    assert.deepEqual([yearly.result, yearly.breakdown.interest], ['1331', '331']);
    const quarterly = await compound({ principal: 1000, rate: 0.08, compounding: 'quarterly', time: 2 });
    assert.equal(quarterly.result, '1171.6593810022656'); // 102^8 = 11716593810022656
    assert.equal(quarterly.inputs.periods, 4);
  });

  test('continuous compounding: 1000·e^0.5 against the published digits of sqrt(e)', async () => {
    const answer = await compound({ principal: 1000, rate: '0.05', compounding: 'continuous', time: 10 });
    // OEIS A019774, sqrt(e) = 1.6487212707001281468486507878141635716537761007101480115750793116406610211942156...
    assert.equal(answer.result, publishedTo64('1648.7212707001281468486507878141635716537761007101480115750793116406610211942156086'));
    assert.equal(answer.breakdown.totalPeriods, null);
    assert.equal(answer.formula, 'A = P·e^(r·t)');
    assert.equal(answer.inputs.periods, 'continuous');
  });

  test('half a year at 5 % yearly is 1000·sqrt(1.05); no time or no rate leaves the principal', async () => {
    const half = await compound({ principal: 1000, rate: 0.05, time: 0.5 });
    assert.equal(half.result, significant(integerSqrt(105n * pow10(140)), pow10(68)));
    assert.equal((await compound({ principal: 1000, rate: 0.05, time: 0 })).result, '1000');
    assert.equal((await compound({ principal: 1000, rate: 0, time: 30, periods: 365 })).result, '1000');
    assert.equal((await compound({ principal: 1000, rate: -0.5, time: 1 })).result, '500');
  });

  test('time defaults to 1 year and periods to 1', async () => {
    const answer = await compound({ principal: 100, rate: '0.07' });
    assert.equal(answer.result, '107');
    assert.deepEqual(answer.inputs, { principal: '100', rate: '0.07', time: '1', periods: 1 });
  });
});

describe('calculate_math dex_slippage (constant product)', () => {
  const swap = (params: Record<string, unknown>) => calculate<FinanceAnswer>({ type: 'dex_slippage', params });

  test('hand-checked: 10 into a 100/100 pool without fee', async () => {
    const answer = await swap({ reserveIn: 100, reserveOut: 100, amountIn: 10, feeBps: 0, slippageToleranceBps: 50 });
    const b = answer.breakdown;
    assert.equal(answer.result, significant(100n, 11n)); // 100·10/110
    assert.equal(b.amountInAfterFee, '10');
    assert.equal(b.feeAmount, '0');
    assert.equal(b.spotPrice, '1');
    assert.equal(b.executionPrice, significant(10n, 11n));
    assert.equal(b.priceImpact, significant(1n, 11n));
    assert.equal(b.priceImpactExcludingFee, significant(1n, 11n));
    assert.equal(b.spotPriceAfter, significant(100n, 121n)); // (100 - 100/11) / 110
    assert.equal(b.priceMovement, significant(21n, 121n));
    assert.equal(b.minimumAmountOut, significant(20000n, 2211n)); // (100/11) / 1.005
    assert.equal(b.reserveInAfter, '110');
    assert.equal(b.reserveOutAfter, significant(1000n, 11n));
    assert.deepEqual(b.atomic, { amountOut: '9', minimumAmountOut: '8' });
    assert.match(answer.method.model ?? '', /x·y = k/);
  });

  test('hand-checked: with the default 0.3 % fee, 10 in gives 997/109.97 out', async () => {
    const answer = await swap({ reserveIn: '100', reserveOut: '100', amountIn: '10' });
    assert.equal(answer.result, significant(99700n, 10997n));
    assert.equal(answer.breakdown.amountInAfterFee, '9.97');
    assert.equal(answer.breakdown.feeAmount, '0.03');
    assert.equal(answer.breakdown.priceImpact, significant(10997n * 10n - 99700n, 10997n * 10n)); // 1 - out/(10·1)
    assert.equal(answer.breakdown.priceImpactExcludingFee, significant(997n, 10997n)); // 9.97/109.97
    assert.deepEqual(answer.inputs, { reserveIn: '100', reserveOut: '100', amountIn: '10', feeBps: '30', slippageToleranceBps: '50' });
  });

  test('the atomic answer is Uniswap v2\'s getAmountOut (997/1000 form) on 300 random pools', async () => {
    let state = 0x2545f4914f6cdd1dn;
    const next = (digits: number) => {
      state ^= state << 13n;
      state &= (1n << 64n) - 1n;
      state ^= state >> 7n;
      state ^= (state << 17n) & ((1n << 64n) - 1n);
      return (state % pow10(digits)) + 1n;
    };
    for (let i = 0; i < 300; i += 1) {
      const reserveIn = next(1 + (i % 27));
      const reserveOut = next(1 + ((i * 7) % 27));
      const amountIn = next(1 + ((i * 3) % 24));
      const expected = (amountIn * 997n * reserveOut) / (reserveIn * 1000n + amountIn * 997n); // UniswapV2Library.getAmountOut
      const answer = await swap({ reserveIn: reserveIn.toString(), reserveOut: reserveOut.toString(), amountIn: amountIn.toString(), feeBps: 30 });
      assert.equal(answer.breakdown.atomic?.amountOut, expected.toString(), `#${i}`);
      assert.equal(answer.breakdown.atomic?.minimumAmountOut, ((expected * 10000n) / 10050n).toString(), `#${i}`);
      // The exact amount out lies in [floor, floor + 1).
      const exact = answer.result.split('.')[0];
      assert.equal(exact, expected.toString(), `#${i}: ${answer.result}`);
    }
  });

  test('no atomic answer when the amounts are not whole numbers', async () => {
    assert.equal((await swap({ reserveIn: '100.5', reserveOut: 100, amountIn: 1 })).breakdown.atomic, null);
  });
});

/** Waits until the pool has its two idle workers, so a timing measures the run, not a worker starting. */
async function warmMathPool(): Promise<void> {
  await formula('1 + 1');
  for (let i = 0; i < 300 && mathWorkers().stats().idle < 2; i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.ok(mathWorkers().stats().idle >= 2);
}

describe('calculate_math bounds a formula in time, memory and size', () => {
  test('an expression bomb is stopped within about a second with 422, not charged', async () => {
    await warmMathPool();
    const bombs = ['ones(10000, 10000)', 'isPrime(2^127 - 1)', 'sum(1:100000000)'];
    const failures = await Promise.all(bombs.map((expression) => failure({ expression })));
    failures.forEach(({ error, ms }, i) => {
      assert.equal(error.status, 422, bombs[i]);
      assert.ok(['evaluation_timeout', 'memory_limit_exceeded'].includes(error.code), `${bombs[i]}: ${error.code}`);
      assert.ok(ms < 3_000, `${bombs[i]}: ${Math.round(ms)} ms`);
    });
    const timeout = failures.find((f) => f.error.code === 'evaluation_timeout');
    assert.ok(timeout);
    assert.match(timeout.error.message, new RegExp(`did not finish within ${MATH_TIME_LIMIT_MS} ms`));
  });

  test('factorial(100000) either answers or is stopped, within the time limit', async () => {
    await warmMathPool();
    const started = performance.now();
    const outcome = await formula('factorial(100000)').then((a) => a.result, (e: unknown) => e);
    const ms = performance.now() - started;
    if (typeof outcome === 'string') assert.match(outcome, /^2\.82422940796034787429342157802453551847749492609122485057891808\de\+456573$/);
    else assert.ok(outcome instanceof ToolError && outcome.code === 'evaluation_timeout', String(outcome));
    assert.ok(ms < 3_000, `${Math.round(ms)} ms`);
  });

  test('a matrix over 10,000 elements or a result over 100,000 characters is refused with 422 result_too_large', async () => {
    const matrix = await failure({ expression: 'ones(200, 200)' });
    assert.equal(matrix.error.status, 422);
    assert.equal(matrix.error.code, 'result_too_large');
    assert.match(matrix.error.message, /the result has 40000 elements, more than the 10000 allowed/);
    assert.equal((await formula('size(ones(100, 100))')).result, '[100, 100]');
    // 9,000 elements of 64 digits: within the element count, not the characters.
    const long = await failure({ expression: 'ones(90, 100) / 3' });
    assert.equal(long.error.code, 'result_too_large');
    assert.match(long.error.message, /characters long, more than the 100000 allowed/);
  });

  test('the longest expression allowed (2000 characters) evaluates', async () => {
    const expression = `1${'+1'.repeat(999)}`;
    assert.equal(expression.length, 1999);
    assert.equal((await formula(expression)).result, '1000');
  });

  test('a normal formula answers at once while a bomb is running', async () => {
    await warmMathPool(); // after the bombs above the pool may still be starting its spares again
    let bombEnded = 0;
    const started = performance.now();
    const bomb = failure({ expression: 'isPrime(2^127 - 1)' }).then((f) => {
      bombEnded = performance.now() - started;
      return f;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const quickStarted = performance.now();
    assert.equal((await formula('2 * 21')).result, '42');
    const quickMs = performance.now() - quickStarted;
    assert.equal(bombEnded, 0, 'the normal formula answered before the bomb was stopped');
    assert.ok(quickMs < 500, `${Math.round(quickMs)} ms`);
    assert.equal((await bomb).error.code, 'evaluation_timeout');
  });

  test('errors only evaluation finds are 400 evaluation_error, naming expression', async () => {
    const cases: [string, RegExp][] = [
      ['a = {}; a.constructor', /No access to property "constructor"/],
      ['[1, 2][1].constructor', /No access to property "constructor"/],
      ['"a" + 1', /Cannot convert "a" to BigNumber/],
      ['[1, 2] + [1, 2, 3]', /mismatch/],
      ['y = x2; x2 = 1', /Undefined symbol x2/],
    ];
    for (const [expression, message] of cases) {
      const { error } = await failure({ expression });
      assert.equal(error.status, 400, expression);
      assert.equal(error.code, 'evaluation_error', expression);
      assert.match(error.message, /^expression: /);
      assert.match(error.message, message);
      assert.equal(error.details?.field, 'expression');
    }
  });
});

describe('calculate_math refuses bad input in the schema (free), naming the field', () => {
  const { issuesOf, expectIssue } = schemaIssues(mathTool.input);

  test('syntax errors give the character, hand-counted', () => {
    expectIssue({ expression: '1 + * 2' }, 'expression', /^Value expected at character 5, near "\* 2"$/);
    expectIssue({ expression: '2 ** 3' }, 'expression', /at character 4/);
    expectIssue({ expression: '3 4 5 )' }, 'expression', /^Unexpected part "4" at character 3/);
    expectIssue({ expression: '(1 + 2' }, 'expression', /^Parenthesis \) expected at the end of the expression \(character 7\)$/);
    expectIssue({ expression: '1 +' }, 'expression', /^Unexpected end of expression \(character 4\)$/);
    expectIssue({ expression: '"abc' }, 'expression', /End of string " expected/);
    expectIssue({ expression: '1 ! 2 ~' }, 'expression', /Unexpected operator ~ at character 7/);
  });

  test('unknown names, with their position', () => {
    expectIssue({ expression: 'foo + 1' }, 'expression', /^unknown symbol "foo" at character 1/);
    expectIssue({ expression: '2 * sqrt(2) + baz(3)' }, 'expression', /^unknown function "baz" at character 15/);
    expectIssue({ expression: 'x + 1', params: { y: 1 } }, 'expression', /unknown symbol "x"/);
  });

  test('nothing that imports, defines or evaluates code, or is not deterministic', () => {
    const refused: [string, RegExp][] = [
      ['import({}, {override: true})', /import is not available: it changes the library at character 1/],
      ['evaluate("1")', /evaluate is not available: it evaluates code/],
      ['parse("x")', /parse is not available/],
      ['compile("1")', /compile is not available/],
      ['simplify("x + x")', /simplify is not available/],
      ['derivative("x^2", "x")', /derivative is not available/],
      ['createUnit("foo")', /createUnit is not available/],
      ['config({number: "number"})', /config is not available/],
      ['typed("f", {})', /typed is not available/],
      ['chain(3)', /chain is not available/],
      ['parser()', /parser is not available/],
      ['resolve("x")', /resolve is not available/],
      ['expression', /expression is not available/],
      ['random()', /random is not available: it is not deterministic/],
      ['randomInt(1, 6)', /randomInt is not available/],
      ['pickRandom([1, 2])', /pickRandom is not available/],
      ['f(x) = x', /^defining functions \("f\(\.\.\.\) = \.\.\."\) is not allowed at character 1/],
      ['g(x) = g(x); g(1)', /defining functions/],
      ['sqrt', /"sqrt" is a function: call it/],
      ['x = sqrt; x(4)', /"sqrt" is a function/],
      ['map([1, 2], sqrt)', /"sqrt" is a function/],
      ['"abc".toString()', /only functions named directly can be called/],
      ['constructor', /unknown symbol "constructor"/],
      ['BigNumber(1)', /"BigNumber" is not a function that can be called/],
      ['pi = 3', /"pi" is a built-in name and cannot be assigned to/],
    ];
    for (const [expression, message] of refused) expectIssue({ expression }, 'expression', message);
  });

  test('expression: required for formula, a non-empty string of at most 2000 characters, brackets at most 50 deep', () => {
    expectIssue({}, 'expression', /expression is required when type is "formula"/);
    expectIssue({ type: 'formula' }, 'expression', /required/);
    expectIssue({ expression: '' }, 'expression');
    expectIssue({ expression: '   ' }, 'expression', /the expression is empty/);
    expectIssue({ expression: 42 }, 'expression');
    expectIssue({ expression: `1${'+1'.repeat(1000)}` }, 'expression'); // 2001 characters
    const deep = `${'('.repeat(MAX_NESTING + 1)}1${')'.repeat(MAX_NESTING + 1)}`;
    expectIssue({ expression: deep }, 'expression', new RegExp(`nested more than ${MAX_NESTING} levels deep at character ${MAX_NESTING + 1}`));
    assert.ok(mathTool.input.safeParse({ expression: `${'('.repeat(MAX_NESTING)}1${')'.repeat(MAX_NESTING)}` }).success);
  });

  test('type is one of the three; params is an object', () => {
    expectIssue({ type: 'algebra', expression: '1' }, 'type');
    expectIssue({ expression: '1', params: [1, 2] }, 'params');
    expectIssue({ expression: '1', params: 'x=1' }, 'params');
  });

  test('formula variables: names, values, count', () => {
    expectIssue({ expression: '1', params: { '2x': 1 } }, 'params.2x', /a variable name is a letter/);
    expectIssue({ expression: '1', params: { sqrt: 1 } }, 'params.sqrt', /built-in name/);
    expectIssue({ expression: '1', params: { pi: 3 } }, 'params.pi', /built-in name/);
    expectIssue({ expression: 'x', params: { x: 'abc' } }, 'params.x', /expected a decimal number/);
    expectIssue({ expression: 'x', params: { x: true } }, 'params.x', /expected a number or a decimal string/);
    expectIssue({ expression: 'x', params: { x: null } }, 'params.x');
    expectIssue({ expression: 'x', params: { x: '1'.repeat(101) } }, 'params.x', /at most 100 characters/);
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`v${i}`, i]));
    expectIssue({ expression: 'v0', params: many }, 'params', /at most 50 variables/);
  });

  test('compound_interest params', () => {
    const ci = (params: unknown) => ({ type: 'compound_interest', params });
    expectIssue({ type: 'compound_interest' }, 'params', /params is required for type compound_interest/);
    expectIssue(ci({ rate: 0.05 }), 'params.principal', /principal is required/);
    expectIssue(ci({ principal: 100 }), 'params.rate', /rate is required/);
    expectIssue(ci({ principal: -1, rate: 0.05 }), 'params.principal', /at least 0/);
    expectIssue(ci({ principal: 100, rate: 'five' }), 'params.rate', /expected a decimal number/);
    expectIssue(ci({ principal: 100, rate: -1 }), 'params.rate', /greater than -1/);
    expectIssue(ci({ principal: 100, rate: 0.05, time: 10_001 }), 'params.time', /at most 10000/);
    expectIssue(ci({ principal: 100, rate: 0.05, time: -1 }), 'params.time', /at least 0/);
    expectIssue(ci({ principal: 100, rate: 0.05, periods: 0 }), 'params.periods', /at least 1/);
    expectIssue(ci({ principal: 100, rate: 0.05, periods: 1.5 }), 'params.periods', /whole number/);
    expectIssue(ci({ principal: 100, rate: 0.05, periods: 12, compounding: 'monthly' }), 'params.compounding', /not both/);
    expectIssue(ci({ principal: 100, rate: 0.05, compounding: 'hourly' }), 'params.compounding', /expected one of annually, /);
    expectIssue(ci({ principal: 100, rate: 0.05, years: 3 }), 'params.years', /unknown parameter .* principal, rate, time, periods, compounding/);
    expectIssue({ type: 'compound_interest', expression: '1', params: { principal: 1, rate: 0 } }, 'expression', /only used with type "formula"/);
  });

  test('dex_slippage params', () => {
    const dex = (params: unknown) => ({ type: 'dex_slippage', params });
    const pool = { reserveIn: 100, reserveOut: 100, amountIn: 1 };
    expectIssue({ type: 'dex_slippage' }, 'params', /params is required for type dex_slippage/);
    expectIssue(dex({ reserveOut: 100, amountIn: 1 }), 'params.reserveIn', /reserveIn is required/);
    expectIssue(dex({ ...pool, reserveOut: 0 }), 'params.reserveOut', /greater than 0/);
    expectIssue(dex({ ...pool, amountIn: -1 }), 'params.amountIn', /greater than 0/);
    expectIssue(dex({ ...pool, amountIn: '1e' }), 'params.amountIn', /expected a decimal number/);
    expectIssue(dex({ ...pool, feeBps: 10_000 }), 'params.feeBps', /less than 10000/);
    expectIssue(dex({ ...pool, slippageToleranceBps: 10_001 }), 'params.slippageToleranceBps', /at most 10000/);
    expectIssue(dex({ ...pool, fee: 0.003 }), 'params.fee', /unknown parameter for type dex_slippage/);
    const crowded = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`k${i}`, i]));
    assert.equal(issuesOf(dex({ ...pool, ...crowded })).length, 1, 'one issue for a thousand unknown keys, not a thousand');
    expectIssue(dex({ ...pool, ...crowded }), 'params', /params has 1003 keys; type dex_slippage takes reserveIn/);
  });
});
