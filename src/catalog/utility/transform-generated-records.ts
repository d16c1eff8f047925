// Seeded random tables for the transform tests: strings made of pieces that stress CSV quoting,
// typing and encoding, numbers at the edges of doubles, nulls, nested values, heterogeneous keys.
// Test support only; kept apart so the fast and the slow suites share it.

/** A small seeded generator (mulberry32), so a failing case can be replayed. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  return { next, int, pick };
}

// Pieces that stress quoting, typing and encoding; strings are made of 0 to 4 of them.
const trickyPieces = [
  '', ',', '"', '""', '\n', '\r\n', '\r', ' ', '\t', 'null', 'true', 'false', 'NaN', '42', '-1.5', '1e+21', '007', '1.50', '-0',
  '{', '}', '[', ']', '[1,2]', '{"a":1}', '"x"', '"[]"', '"\\"{}\\""', '\\', 'é', 'e\u0301', '東京', '🙂', 'مرحبا', '\u0000', '\u2028', '\ufeff', 'a', 'abc', '__proto__',
];
const keyPool = ['id', 'name', '', ',', '"', 'a b', 'é', '__proto__', '1', '10', 'null', 'x\ny', ' lead', '\ufeffbom', '東京'];

export function generateRecords(seed: number): Record<string, unknown>[] {
  const random = seededRandom(seed);
  const string = () => Array.from({ length: random.int(5) }, () => random.pick(trickyPieces)).join('');
  const number = () => random.pick([0, 1, -1, 42, 3.14, -2.5e-7, 1e21, 2 ** 53 - 1, -(2 ** 53) + 1, 0.1 + 0.2, 123456.789, 5e-324, 1.7976931348623157e308]);
  const value = (depth: number): unknown => {
    switch (random.int(depth > 2 ? 5 : 7)) {
      case 0: case 1: return string();
      case 2: return number();
      case 3: return random.pick([true, false]);
      case 4: return null;
      case 5: return Array.from({ length: random.int(4) }, () => value(depth + 1));
      default: return Object.fromEntries(Array.from({ length: random.int(4) }, () => [random.pick(keyPool), value(depth + 1)]));
    }
  };
  return Array.from({ length: random.int(12) }, () =>
    // fromEntries keeps "__proto__" an own key, as JSON.parse does.
    Object.fromEntries(keyPool.filter(() => random.next() < 0.4).map((key) => [key, value(0)])),
  );
}
