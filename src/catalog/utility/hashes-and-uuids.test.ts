import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { validate as isUuid, version as uuidVersion } from 'uuid';
import { sha256 as referenceSha256, stringToBytes } from 'viem';
import { testContext } from '../../../test/support/tool-context.ts';
import type { HttpRoute, ToolContext } from '../tool.ts';
import { hashesAndUuidsTool } from './hashes-and-uuids.ts';
import { createUuidV7Generator } from './uuid-v7.ts';

const ctx = (now: () => Date = () => new Date()): ToolContext => testContext({
  signal: new AbortController().signal,
  now,
  caller: { ip: '127.0.0.1' },
});

const uuidV7Pattern = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const uuidV4Pattern = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const nanoidPattern = /^[A-Za-z0-9_-]{21}$/;

/** The 48-bit big-endian Unix-millisecond field of a UUIDv7, read straight off its first 12 hex digits. */
const embeddedMs = (uuid: string) => parseInt(uuid.replace(/-/g, '').slice(0, 12), 16);

function route(method: 'GET' | 'POST', path: string): Required<Pick<HttpRoute, 'input' | 'handler'>> {
  const found = hashesAndUuidsTool.http.find((r) => r.method === method && r.path === path);
  assert.ok(found?.input && found.handler, `${method} ${path} has its own input and handler`);
  return { input: found.input, handler: found.handler.bind(found) };
}

interface IdsAnswer {
  uuidv7: string;
  uuidv7Timestamp: string;
  uuidv4: string;
  nanoid: string;
  hash?: HashAnswer;
}
interface HashAnswer {
  input: { length: number; bytes: number };
  algorithms: string[];
  encoding: string;
  sha256: string;
  sha512: string;
}

const uuidRoute = route('GET', '/api/tools/uuid');
const hashRoute = route('POST', '/api/tools/hash');
const getIds = async (c = ctx()) => (await uuidRoute.handler(uuidRoute.input.parse({}), c)) as IdsAnswer;
const hash = async (input: string) => (await hashRoute.handler(hashRoute.input.parse({ input }), ctx())) as HashAnswer;

describe('POST /api/tools/hash', () => {
  // FIPS 180-2 examples ("abc", the 448-bit message) and the empty string; UTF-8 vectors from coreutils sha256sum/sha512sum.
  const vectors = [
    {
      text: 'abc', length: 3, bytes: 3,
      sha256: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
      sha512: 'ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f',
    },
    {
      text: '', length: 0, bytes: 0,
      sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      sha512: 'cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e',
    },
    {
      text: 'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq', length: 56, bytes: 56,
      sha256: '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
      sha512: '204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c33596fd15c13b1b07f9aa1d3bea57789ca031ad85c7a71dd70354ec631238ca3445',
    },
    {
      text: 'é', length: 1, bytes: 2,
      sha256: '4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c',
      sha512: '9e2ad28633f24451bd4f3c1cb20586a21a44c3aeedbdc01b9cc8fa72917ea7bd689c82b8bf1fef89b911cf8cc46fa2c1ccc10087b2094fd4d3350ecd88526a2c',
    },
  ];
  for (const v of vectors) {
    test(`hashes ${JSON.stringify(v.text)} as its published digests`, async () => {
      assert.deepEqual(await hash(v.text), {
        input: { length: v.length, bytes: v.bytes },
        algorithms: ['SHA-256', 'SHA-512'],
        encoding: 'hex',
        sha256: v.sha256,
        sha512: v.sha512,
      });
    });
  }

  test('counts code points and UTF-8 bytes of astral and CJK text', async () => {
    const answer = await hash('héllo wörld ✓ 東京 🚀');
    assert.deepEqual(answer.input, { length: 18, bytes: 29 });
    assert.equal(answer.sha256, 'de84bea128d361cb706b4b2acf6a8742f68f7879d0fd07f3ac9a552ba3caf853');
  });

  test('agrees with an independent SHA-256 (viem/noble) on 200 random strings, hex lowercase', async () => {
    let seed = 42;
    const nextRandom = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const alphabet = ['a', 'Z', '0', ' ', '\n', 'é', 'ß', '✓', '東', '🚀', '\u0000', '"'];
    for (let i = 0; i < 200; i += 1) {
      const text = Array.from({ length: Math.floor(nextRandom() * 300) }, () => alphabet[Math.floor(nextRandom() * alphabet.length)]).join('');
      const answer = await hash(text);
      assert.equal(`0x${answer.sha256}`, referenceSha256(stringToBytes(text)));
      assert.match(answer.sha512, /^[0-9a-f]{128}$/);
      assert.equal(answer.input.bytes, stringToBytes(text).length);
    }
  });

  test('input is required, a string, and at most 1,000,000 characters', () => {
    for (const raw of [{}, { input: 42 }, { input: 'x'.repeat(1_000_001) }]) {
      const result = hashRoute.input.safeParse(raw);
      assert.equal(result.success, false);
      assert.deepEqual(result.error?.issues[0]?.path, ['input']);
    }
    assert.ok(hashRoute.input.safeParse({ input: 'x'.repeat(1_000_000) }).success);
  });

  test('refuses a lone UTF-16 surrogate, which would hash like U+FFFD, and accepts a proper pair', () => {
    for (const input of ['a\ud800', '\udc00b', 'x\udbff\udbffy']) {
      const result = hashRoute.input.safeParse({ input });
      assert.equal(result.success, false, JSON.stringify(input));
      assert.deepEqual(result.error?.issues[0]?.path, ['input']);
      assert.match(result.error?.issues[0]?.message ?? '', /unpaired UTF-16 surrogate/);
      assert.equal(hashesAndUuidsTool.input.safeParse({ input }).success, false);
    }
    assert.ok(hashRoute.input.safeParse({ input: '\ud83d\ude80' }).success);
  });
});

describe('GET /api/tools/uuid', () => {
  test('returns exactly a UUIDv7 with its timestamp, a UUIDv4 and a nanoid', async () => {
    const ids = await getIds();
    assert.deepEqual(Object.keys(ids).sort(), ['nanoid', 'uuidv4', 'uuidv7', 'uuidv7Timestamp']);
    assert.match(ids.uuidv7, uuidV7Pattern);
    assert.ok(isUuid(ids.uuidv7));
    assert.equal(uuidVersion(ids.uuidv7), 7);
    assert.match(ids.uuidv4, uuidV4Pattern);
    assert.equal(uuidVersion(ids.uuidv4), 4);
    assert.match(ids.nanoid, nanoidPattern);
    assert.equal(ids.uuidv7Timestamp, new Date(embeddedMs(ids.uuidv7)).toISOString());
  });

  test('takes no parameters', () => {
    assert.deepEqual(uuidRoute.input.parse({}), {});
  });

  test('1000 UUIDv7s are unique, strictly increasing and stamped within the test\'s clock window', async () => {
    const before = Date.now();
    const answers: IdsAnswer[] = [];
    for (let i = 0; i < 1000; i += 1) answers.push(await getIds());
    const after = Date.now();
    const v7s = answers.map((a) => a.uuidv7);
    for (let i = 1; i < v7s.length; i += 1) assert.ok(v7s[i - 1]! < v7s[i]!, `${v7s[i - 1]} < ${v7s[i]}`);
    for (const a of answers) {
      assert.match(a.uuidv7, uuidV7Pattern);
      const ms = embeddedMs(a.uuidv7);
      assert.ok(ms >= before && ms <= after, `${ms} within [${before}, ${after}]`);
    }
    assert.equal(new Set(answers.map((a) => a.uuidv4)).size, 1000);
    assert.equal(new Set(answers.map((a) => a.nanoid)).size, 1000);
    for (const a of answers) {
      assert.match(a.uuidv4, uuidV4Pattern);
      assert.match(a.nanoid, nanoidPattern);
    }
  });

  test('stamps the UUIDv7 from the context clock', async () => {
    const fixed = new Date('2001-02-03T04:05:06.789Z');
    const ids = await getIds(ctx(() => fixed));
    assert.equal(embeddedMs(ids.uuidv7), fixed.getTime());
    assert.equal(ids.uuidv7Timestamp, '2001-02-03T04:05:06.789Z');
  });
});

describe('MCP tool generate_hashes_and_uuids', () => {
  const run = async (raw: unknown) => {
    assert.ok(hashesAndUuidsTool.handler);
    return (await hashesAndUuidsTool.handler(hashesAndUuidsTool.input.parse(raw), ctx())) as IdsAnswer;
  };

  test('without input: the ids only', async () => {
    const answer = await run({});
    assert.deepEqual(Object.keys(answer).sort(), ['nanoid', 'uuidv4', 'uuidv7', 'uuidv7Timestamp']);
    assert.match(answer.uuidv7, uuidV7Pattern);
  });

  test('with input (even empty): the ids and the same hash block as POST /api/tools/hash', async () => {
    const answer = await run({ input: 'abc' });
    assert.match(answer.uuidv7, uuidV7Pattern);
    assert.deepEqual(answer.hash, await hash('abc'));
    assert.equal((await run({ input: '' })).hash?.sha256, 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  test('rejects a non-string input naming the field', () => {
    const result = hashesAndUuidsTool.input.safeParse({ input: 1 });
    assert.equal(result.success, false);
    assert.deepEqual(result.error?.issues[0]?.path, ['input']);
  });
});

describe('the UUIDv7 generator', () => {
  const fields = (uuid: string) => {
    const hex = uuid.replace(/-/g, '');
    return { ms: embeddedMs(uuid), version: hex[12], variantBits: (parseInt(hex[16]!, 16) >> 2).toString(2) };
  };

  test('on a stopped clock, keeps the millisecond and still counts up', () => {
    const next = createUuidV7Generator();
    const ids = Array.from({ length: 1000 }, () => next(1_700_000_000_000));
    for (let i = 1; i < ids.length; i += 1) assert.ok(ids[i - 1]!.uuid < ids[i]!.uuid);
    for (const { uuid, timestampMs } of ids) {
      assert.deepEqual(fields(uuid), { ms: 1_700_000_000_000, version: '7', variantBits: '10' });
      assert.equal(timestampMs, 1_700_000_000_000);
    }
  });

  test('a small step back of the clock keeps order; a large one restarts from the clock', () => {
    const next = createUuidV7Generator();
    const first = next(1_700_000_000_000);
    const stepBack = next(1_700_000_000_000 - 5_000);
    assert.ok(first.uuid < stepBack.uuid);
    assert.equal(stepBack.timestampMs, 1_700_000_000_000);
    const jumpBack = next(1_700_000_000_000 - 3_600_000);
    assert.equal(jumpBack.timestampMs, 1_700_000_000_000 - 3_600_000);
  });

  test('when the 74 counting bits run out, moves to the next millisecond', () => {
    // A rigged source: the largest fresh tail, then an increment too large to fit, to reach the end at once.
    const next = createUuidV7Generator((bits) => (bits === 32 ? 1n << 74n : (1n << BigInt(bits)) - 1n));
    const first = next(5);
    assert.equal(first.uuid, '00000000-0005-77ff-bfff-ffffffffffff');
    const second = next(5);
    assert.equal(second.timestampMs, 6);
    assert.ok(first.uuid < second.uuid);
  });

  test('places the timestamp big-endian in the first 48 bits, with the version and variant of RFC 9562', () => {
    const next = createUuidV7Generator(() => 0n);
    assert.equal(next(0x017f22e279b0).uuid, '017f22e2-79b0-7000-8000-000000000000');
    assert.equal(next(2 ** 48 - 1 - 20_000).uuid.slice(0, 13), 'ffffffff-b1df');
  });

  test('refuses a clock outside the 48-bit millisecond range', () => {
    const next = createUuidV7Generator();
    assert.throws(() => next(-1), RangeError);
    assert.throws(() => next(2 ** 48), RangeError);
    assert.throws(() => next(1.5), RangeError);
  });
});
