// Measures distill_document on its corpora of real documents and writes docs/distill-savings.md: the fresh sets
// 2 to 15 (test/fixtures/distill-corpus-fresh2 … -fresh15), each drawn and given its facts at the start of a round
// before the distiller ran on it, measured once with that round's final code (the newest, fresh sets 14 and 15, with
// round 15's: the headline) and tuned on in every round after (since round 15 its unit scorer is trained on them); the round-2 fresh set (test/fixtures/distill-corpus-fresh);
// the test and hold-out sets (facts written before any distillation of them, since looked at while tuning); and the
// tuning set (test/fixtures/distill-corpus, which the heuristics were developed on). docs/distill-savings.md, "Which
// set says what", gives each set's status. Beside each answer it measures plain truncation: the document's readable
// text cut to the answer's token count, the baseline a summary has to beat.
// Run: npm run measure:distill   (node --import tsx scripts/measure-distill.ts)
// The test src/catalog/ai/distill-corpus.slow.test.ts asserts on the same measurement.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { decode, encode } from 'gpt-tokenizer/encoding/o200k_base';
import { distill, readDocument, type Distillation } from '../src/catalog/ai/distill/distill-document.ts';
import { plainText } from '../src/catalog/ai/distill/document.ts';
import { BUDGETS, DETAILS, MAX_OUTPUT_TOKENS, shareFor, type BudgetRequest, type Detail } from '../src/catalog/ai/distill/budget.ts';
import type { UnitWeights } from '../src/catalog/ai/distill/learned-points.ts';
import { TOKENIZER } from '../src/catalog/ai/distill/token-count.ts';

export const KINDS = ['readme', 'html', 'changelog', 'licence', 'man', 'reference'] as const;
export type Kind = (typeof KINDS)[number];
export type CorpusName = 'tuning' | 'test' | 'holdout' | 'fresh' | 'fresh2' | 'fresh3' | 'fresh4' | 'fresh5' | 'fresh6' | 'fresh7' | 'fresh8' | 'fresh9' | 'fresh10' | 'fresh11' | 'fresh12' | 'fresh13' | 'fresh14' | 'fresh15';
/** A fact, or the fact followed by alternative spellings declared with it. */
export type Fact = string | readonly string[];

export const CORPUS_DIRS: Record<CorpusName, string> = {
  tuning: fileURLToPath(new URL('../test/fixtures/distill-corpus/', import.meta.url)),
  test: fileURLToPath(new URL('../test/fixtures/distill-corpus-test/', import.meta.url)),
  holdout: fileURLToPath(new URL('../test/fixtures/distill-corpus-holdout/', import.meta.url)),
  fresh: fileURLToPath(new URL('../test/fixtures/distill-corpus-fresh/', import.meta.url)),
  fresh2: fileURLToPath(new URL('../test/fixtures/distill-corpus-fresh2/', import.meta.url)),
  fresh3: fileURLToPath(new URL('../test/fixtures/distill-corpus-fresh3/', import.meta.url)),
  fresh4: fileURLToPath(new URL('../test/fixtures/distill-corpus-fresh4/', import.meta.url)),
  fresh5: fileURLToPath(new URL('../test/fixtures/distill-corpus-fresh5/', import.meta.url)),
  fresh6: fileURLToPath(new URL('../test/fixtures/distill-corpus-fresh6/', import.meta.url)),
  fresh7: fileURLToPath(new URL('../test/fixtures/distill-corpus-fresh7/', import.meta.url)),
  fresh8: fileURLToPath(new URL('../test/fixtures/distill-corpus-fresh8/', import.meta.url)),
  fresh9: fileURLToPath(new URL('../test/fixtures/distill-corpus-fresh9/', import.meta.url)),
  fresh10: fileURLToPath(new URL('../test/fixtures/distill-corpus-fresh10/', import.meta.url)),
  fresh11: fileURLToPath(new URL('../test/fixtures/distill-corpus-fresh11/', import.meta.url)),
  fresh12: fileURLToPath(new URL('../test/fixtures/distill-corpus-fresh12/', import.meta.url)),
  fresh13: fileURLToPath(new URL('../test/fixtures/distill-corpus-fresh13/', import.meta.url)),
  fresh14: fileURLToPath(new URL('../test/fixtures/distill-corpus-fresh14/', import.meta.url)),
  fresh15: fileURLToPath(new URL('../test/fixtures/distill-corpus-fresh15/', import.meta.url)),
};

/** The fresh sets measured once with the current code and never tuned or trained on (scripts/train-distill-scorer.ts leaves them out). */
export const UNSEEN_SETS: readonly CorpusName[] = ['fresh14', 'fresh15'];

export interface CorpusDocument {
  file: string;
  kind: Kind;
  facts: readonly Fact[];
}

export interface DocumentMeasure extends CorpusDocument {
  format: Distillation['format'];
  input: number;
  text: number;
  output: number;
  savedPercent: number;
  /** Facts not found in the answer. */
  missing: string[];
  /** Facts not found in the readable text cut to the answer's token count. */
  truncationMissing: string[];
  milliseconds: number;
}

/**
 * The answer's JSON with its string escapes undone (quotes, backslashes, line breaks), so that a fact
 * is looked for in the answer's words as it is in the truncated text: a fact with a quote in it, or
 * spanning two of the summary's lines, is found where the answer has it.
 */
const JSON_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' };
const jsonText = (value: unknown) => JSON.stringify(value).replace(/\\(["\\/bfnrt])/g, (_, c: string) => JSON_ESCAPES[c] ?? c);

/** Whitespace collapsed, lower case: how facts are looked for. */
export const normalise = (text: string) => text.replace(/\s+/g, ' ').toLowerCase();
/** A fact's spellings: the fact, then its alternatives. */
export const spellings = (fact: Fact): readonly string[] => (typeof fact === 'string' ? [fact] : fact);
const factName = (fact: Fact) => spellings(fact)[0]!;
const found = (haystack: string, fact: Fact) => spellings(fact).some((spelling) => haystack.includes(normalise(spelling)));

interface TuningFacts {
  documents: Record<string, string[]>;
  kinds: Record<string, Kind>;
}
interface TestFacts {
  documents: Record<string, { kind: Kind; facts: Fact[] }>;
}

export function loadCorpus(name: CorpusName): CorpusDocument[] {
  const dir = CORPUS_DIRS[name];
  const raw = JSON.parse(readFileSync(`${dir}facts.json`, 'utf8')) as TuningFacts | TestFacts;
  const files = readdirSync(dir).filter((file) => file !== 'SOURCES.md' && file !== 'facts.json').sort();
  return files.map((file) => {
    if (name === 'tuning') {
      const tuning = raw as TuningFacts;
      return { file, kind: tuning.kinds[file]!, facts: tuning.documents[file] ?? [] };
    }
    const entry = (raw as TestFacts).documents[file];
    return { file, kind: entry?.kind ?? 'reference', facts: entry?.facts ?? [] };
  });
}

/** The document's readable text, cut after `tokens` tokens. */
function truncated(content: string, tokens: number): string {
  return decode(encode(plainText(readDocument(content))).slice(0, tokens));
}

/** Every corpus measured, one after the other. */
export async function measureAll(): Promise<Record<CorpusName, DocumentMeasure[]>> {
  const sets: Partial<Record<CorpusName, DocumentMeasure[]>> = {};
  for (const name of Object.keys(CORPUS_DIRS) as CorpusName[]) sets[name] = await measureCorpus(name);
  return sets as Record<CorpusName, DocumentMeasure[]>;
}

export async function measureCorpus(name: CorpusName, request: BudgetRequest = {}, weights?: UnitWeights): Promise<DocumentMeasure[]> {
  const measures: DocumentMeasure[] = [];
  for (const document of loadCorpus(name)) {
    const content = readFileSync(`${CORPUS_DIRS[name]}${document.file}`, 'utf8');
    const started = performance.now();
    const result = await distill(content, undefined, request, undefined, weights);
    const milliseconds = Math.round(performance.now() - started);
    const { tokens, ...distilled } = result;
    const answer = normalise(jsonText(distilled));
    const baseline = normalise(truncated(content, tokens.output));
    measures.push({
      ...document,
      format: result.format,
      input: tokens.input,
      text: tokens.text,
      output: tokens.output,
      savedPercent: tokens.savedPercent,
      missing: document.facts.filter((fact) => !found(answer, fact)).map(factName),
      truncationMissing: document.facts.filter((fact) => !found(baseline, fact)).map(factName),
      milliseconds,
    });
  }
  return measures;
}

export const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const percent = (value: number) => `${value.toFixed(1)}%`;

export interface GroupFigures {
  documents: number;
  facts: number;
  kept: number;
  truncationKept: number;
  medianSaved: number;
}

export function figures(measures: readonly DocumentMeasure[]): GroupFigures {
  const facts = measures.reduce((sum, m) => sum + m.facts.length, 0);
  return {
    documents: measures.length,
    facts,
    kept: facts - measures.reduce((sum, m) => sum + m.missing.length, 0),
    truncationKept: facts - measures.reduce((sum, m) => sum + m.truncationMissing.length, 0),
    medianSaved: median(measures.map((m) => m.savedPercent)),
  };
}

export const byKind = (measures: readonly DocumentMeasure[]) =>
  KINDS.map((kind) => [kind, measures.filter((m) => m.kind === kind)] as const).filter(([, group]) => group.length > 0);

const share = (count: number, total: number) => `${count}/${total} (${percent((100 * count) / total)})`;

export function summaryTable(measures: readonly DocumentMeasure[]): string {
  const row = (label: string, group: readonly DocumentMeasure[]) => {
    const f = figures(group);
    return `| ${label} | ${f.documents} | ${share(f.kept, f.facts)} | ${share(f.truncationKept, f.facts)} | ${percent(f.medianSaved)} |`;
  };
  return [
    '| Kind | Documents | Facts kept by distill_document | Facts kept by truncation at the same length | Median saving |',
    '|---|---:|---:|---:|---:|',
    ...byKind(measures).map(([kind, group]) => row(kind, group)),
    row('**all**', measures),
  ].join('\n');
}

function documentTable(measures: readonly DocumentMeasure[]): string {
  const lost = (facts: readonly string[]) => (facts.length ? ` (lost: ${facts.map((f) => `"${f}"`).join(', ')})` : '');
  return [
    '| Document | Kind | Format | Input tokens | Text tokens | Output tokens | Saved | Facts kept | Truncation keeps |',
    '|---|---|---|---:|---:|---:|---:|---|---|',
    ...measures.map(
      (m) =>
        `| ${m.file} | ${m.kind} | ${m.format} | ${m.input} | ${m.text} | ${m.output} | ${percent(m.savedPercent)} | ${m.facts.length - m.missing.length}/${m.facts.length}${lost(m.missing)} | ${m.facts.length - m.truncationMissing.length}/${m.facts.length} |`,
    ),
  ].join('\n');
}

/** The sets round 15 trained its scorer on and checked against. */
type TunedSet = Exclude<CorpusName, 'fresh14' | 'fresh15'>;

/** Facts kept on each set at the end of round 14 (main at commit 3759794, the branch point of round 15: the rules alone), by the answer and by truncation. */
export const ROUND14_END: Record<TunedSet, { kept: number; truncationKept: number; facts: number; medianSaved: number }> = {
  fresh13: { kept: 55, truncationKept: 55, facts: 95, medianSaved: 83.95 },
  fresh12: { kept: 60, truncationKept: 51, facts: 95, medianSaved: 82.7 },
  fresh11: { kept: 57, truncationKept: 53, facts: 96, medianSaved: 84.15 },
  fresh10: { kept: 58, truncationKept: 51, facts: 96, medianSaved: 83.75 },
  fresh9: { kept: 60, truncationKept: 53, facts: 96, medianSaved: 81.75 },
  fresh8: { kept: 71, truncationKept: 59, facts: 95, medianSaved: 81.1 },
  fresh7: { kept: 78, truncationKept: 53, facts: 94, medianSaved: 83.05 },
  fresh6: { kept: 69, truncationKept: 55, facts: 93, medianSaved: 82.3 },
  fresh5: { kept: 112, truncationKept: 97, facts: 138, medianSaved: 79.75 },
  fresh4: { kept: 100, truncationKept: 86, facts: 133, medianSaved: 80.3 },
  fresh3: { kept: 103, truncationKept: 87, facts: 124, medianSaved: 79.05 },
  fresh2: { kept: 124, truncationKept: 101, facts: 155, medianSaved: 80.65 },
  fresh: { kept: 126, truncationKept: 101, facts: 144, medianSaved: 81.6 },
  test: { kept: 190, truncationKept: 155, facts: 206, medianSaved: 84.7 },
  holdout: { kept: 71, truncationKept: 56, facts: 74, medianSaved: 83.8 },
  tuning: { kept: 152, truncationKept: 138, facts: 155, medianSaved: 84.2 },
};

/** Fresh set 15's measurement: the code it was measured with, and what was found after (nothing is tuned on it). */
export const FRESH15_MEASURED = {
  code: 'the distiller of commit 576f984 with its unit weights, unchanged since; measured by the commit that added this set',
  note: [
    'Measured once: 58 of 96 facts kept (60.4%), plain truncation at the same length 61 (63.5%), median saving 84.5%.',
    '**The issue\'s goals are not met**: 60.4% of the facts, not 90%, behind truncation overall and on four kinds (READMEs',
    '8 against 9, HTML pages 11 against 12, man pages 11 against 13, reference pages 8 against 11), ahead on changelogs (11',
    'against 9) and licences (9 against 7). Round 14\'s code (the rules alone, commit 3759794), run on this set after the',
    'measurement for comparison only, keeps 60 (READMEs 10, HTML 11, changelogs 11, licences 10, man pages 10, reference 8):',
    'here the scorer\'s quarter lost 2 facts, where on fresh set 14 it gained 3. On the 192 unseen facts of both sets the',
    'rules alone keep 107 and the rules with the scorer 108: the gain leave-one-set-out promised (+4.6 points on fresh sets 9',
    'to 13) is not seen on documents neither the rules nor the scorer had met (+0.5 points, within what one document moves).',
    '',
    'What it lost, listed after the measurement (nothing was changed for it): reference pages (8 of 16, truncation 11):',
    '@redocly/cli\'s agent guide (3 of 8) loses its install command `npm i @redocly/cli@latest`, what `lint` does, its exit',
    'codes, its rule severities and `bundle` against `join`; fastify\'s TypeScript guide (5 of 8, truncation 7) the',
    '`server.listen({ port: 8080 }, …)` line, the route generic\'s five properties and the advice to use `import/from`. Man',
    'pages (11 of 16, truncation 13): systemd-stdio-bridge\'s (4 of 8; 528 text tokens) loses what it does after connecting,',
    'two options\' meanings, a default address and the root-user rule; eqn\'s its 70% subscript size. READMEs (8 of 16):',
    'dom-serializer\'s (3 of 8, truncation 5) loses what it is the equivalent of (`outerHTML`) and its options\' meanings;',
    'fastify-merge-json-schemas\'s its usage line and an option\'s meaning and default. HTML pages (11 of 16): the Node.js',
    'globals page loses `AbortSignal.timeout`\'s meaning, `atob`\'s legacy note and how to enable WebSocket; valgrind\'s',
    'advanced core manual a client request\'s return value and function wrapping. Licences (9 of 16, truncation 7): curl\'s',
    'copyright file loses its address, its holder line and the advertising clause; libgmp\'s its first line, its address, the',
    'non-free part and the dual-licence phrase. Changelogs (11 of 16): alsa-lib\'s Debian changelog loses three entries of',
    'older uploads, function-bind\'s its v1.1.1 header as written and an ES3 fix.',
  ].join('\n'),
};

/** Fresh set 14's measurement: the code it was measured with, and what was found after (nothing is tuned on it). */
export const FRESH14_MEASURED = {
  code: 'the distiller of commit 576f984 with its unit weights, unchanged since; measured by the commit that made this set the headline',
  note: [
    'Measured once: 50 of 96 facts kept (52.1%), plain truncation at the same length 56 (58.3%), median saving 84.3%.',
    '**The issue\'s goals are not met**: 52.1% of the facts, not 90%, and the answer is behind truncation overall: far behind',
    'on reference pages (5 against 12), behind on licences (8 against 10) and man pages (7 against 8), level on READMEs',
    '(9 against 9), ahead on HTML pages (11 against 9) and changelogs (10 against 8). The median saving, 84.3%, meets the',
    '80% asked; the two licences (769 and 729 text tokens) save 73.2% and 66.7%, short documents at the 300-token floor.',
    'Round 14\'s code (the rules alone, commit 3759794), run on this set after the measurement and for comparison only,',
    'keeps 47 (READMEs 7, HTML 10, changelogs 10, licences 9, man pages 7, reference pages 4): the scorer\'s quarter of the',
    'budget gained 3 facts on documents it had not seen, about what leave-one-set-out predicted (+4.6 points there, +3.1',
    'here), and this set is harder than the earlier ones for both. Its facts were written by a helper given only the',
    'drawing brief (no loss classes, no method); the HTML and reference lists were used up and widened to 100,000',
    'characters, so three of its documents (Node.js\'s Modules page, valgrind\'s Helgrind manual, fastify\'s Server',
    'reference) are longer than any in an earlier set.',
    '',
    'What it lost, listed after the measurement (nothing was changed for it): reference pages (5 of 16, truncation 12):',
    'fastify\'s Ecosystem (3 of 8, truncation 8) is a list of plugins each with its one-line meaning, its facts the core',
    'plugins\' lines; the summary reads the core list in order as far as `@fastify/caching` and the rest of the budget goes to',
    'community plugins picked further down, while the first 1,152 tokens read on through the whole core list (fresh set 13\'s',
    'pino Ecosystem lost the same way: a list page is best read in order); fastify\'s Server reference (2 of 8, truncation 4;',
    '15,804 text tokens) loses its options\' defaults and meanings (`1048576` (1MiB), the plugin timeout, the 503 response,',
    'the 100-character default, the listen default). Licences (8 of 16, truncation 10): libtasn1\'s copyright file (read as',
    'Markdown) loses its licences\' scope (LGPLv2.1+ for the library, GPLv3+ for the tools, FDL 1.3 with no Invariant',
    'Sections); cscope\'s loses SCO\'s release line, its address and two BSD clauses. Man pages (7 of 16, truncation 8):',
    'systemd-socket-activate\'s (3 of 8, truncation 5) loses how sockets are passed (file descriptors 3 and higher), the',
    'address form, the meanings of `--datagram` and `--inetd` and its example command; c++filt\'s (4 of 8, truncation 3)',
    'the sentence saying what it does ("it decodes (demangles) low-level names…") and three options\' meanings. READMEs (9',
    'of 16): encodeurl\'s loses its `%20`/`%foo` example, the surrogate-pair rule and its likeness to `encodeURI`,',
    'scure-base\'s its `createBase58check(sha256)` line, the base58 DoS advice, its audit line and "0 dependencies". HTML',
    'pages (11 of 16): the Modules page loses `require.main === module`, module caching and `ERR_REQUIRE_ASYNC_MODULE`;',
    'the Helgrind manual two option meanings. Changelogs (10 of 16): es-set-tostringtag\'s older entries and libarchive\'s',
    'Debian changelog\'s symbol-policy note, one maintainer\'s name and its trailing `apt changelog libarchive13`.',
  ].join('\n'),
};

/** Fresh set 13 as measured once, clean, with round 14's final code (commit 39d4273's distiller; docs/distill-savings.md at commit 3759794 lists it document by document). */
export const FRESH13_ONCE: Record<Kind | 'all', { kept: number; truncationKept: number; facts: number; medianSaved: number }> = {
  readme: { kept: 10, truncationKept: 8, facts: 16, medianSaved: 77.9 },
  html: { kept: 10, truncationKept: 10, facts: 16, medianSaved: 90.5 },
  changelog: { kept: 14, truncationKept: 10, facts: 16, medianSaved: 88.3 },
  licence: { kept: 9, truncationKept: 10, facts: 15, medianSaved: 82.0 },
  man: { kept: 5, truncationKept: 8, facts: 16, medianSaved: 81.3 },
  reference: { kept: 7, truncationKept: 9, facts: 16, medianSaved: 81.7 },
  all: { kept: 55, truncationKept: 55, facts: 95, medianSaved: 84.0 },
};

/** Fresh set 13's measurement in round 14: the code it was measured with, and what its losses showed (round 15 trained on it). */
export const FRESH13_MEASURED = {
  code: 'the distiller of commit 39d4273, unchanged since; measured by the commit that made this set the headline',
  note: [
    'Measured once: 55 of 95 facts kept (57.9%), plain truncation at the same length 55 (57.9%), median saving 84.0%.',
    '**The issue\'s goals are not met**: 57.9% of the facts, not 90% (fresh sets 9 to 12 measured once kept 55-56 each), and',
    'the answer is only level with truncation overall: behind it on man pages (5 against 8), reference pages (7 against 9)',
    'and licences (9 against 10), level on HTML pages (10 against 10), ahead on READMEs (10 against 8) and changelogs (14',
    'against 10). The median saving, 84.0%, meets the 80% asked; bzmore\'s page (907 text tokens) saves 75.0% and',
    'date-bengali-revised\'s README (794) 75.1%, short documents at the 300-token floor. This round\'s brief listed fresh set',
    '12\'s loss classes before these facts were written, and their writer had read them (and this round\'s changes): the',
    'changelog fact "v1.0.0 - 2019-12-01" (side-channel\'s first release as its heading writes it) is of the form the round\'s',
    'changelog span now serves; it is what a reader quotes for a changelog\'s first release, as fresh set 12\'s has-symbols fact',
    'was, but the changelog figure is the one most open to that doubt (13 of 16 without it, still ahead of truncation).',
    '',
    'What it lost, listed after the measurement (nothing was changed for it): man pages (5 of 16, truncation 8):',
    'systemd-run\'s (1 of 8, truncation 3; 3,936 text tokens, an 835-token answer) quotes its four synopsis forms and three',
    'description paragraphs, then gives its options as keywords (`--scope`, `--shell`, `--collect`) and only a few with their',
    'meanings (`--no-ask-password`, `--remain-after-exit`, `--send-sighup`), so `--scope`\'s, `--wait`\'s, `--collect`\'s and',
    '`--shell`\'s meanings, `--property=Type=exec` and both example commands (`systemd-run -p IOWeight=10 updatedb`, the',
    '`--on-active=30` timer) are lost, its one command fact `screen -ls`: the class of options without their meanings, which',
    'this round measured (a manual\'s option facts weighted 1.5 and 3 times against their keywords: 1,428 -> 1,422 and 1,396',
    'on the tuned sets) and did not fix. bzmore\'s (4 of 8, truncation 5; 907 text tokens) gives its interactive commands',
    '(`i<space>`, `is`, `i/expr`, terms that are not options) as keywords or not at all. Reference pages (7 of 16, truncation',
    '9): fastify\'s Getting Started (3 of 8, truncation 4), a walkthrough, loses `fastify.listen({ port: 3000 })`, "with',
    'Fastify everything is a plugin", the plugin loading order, the 2-3 serialization factor and JSON Schema; pino\'s',
    'Ecosystem (4 of 8, truncation 5), a list of modules each with a one-line meaning, quotes the first four and lists later',
    'modules by name only (`pino-caller`, `pino-clf`), so `pino-pretty`\'s, `pino-http`\'s, `pino-multi-stream`\'s and',
    '`pino-noir`\'s meanings are lost. Licences (9 of 15, truncation 10): coreutils\' copyright file (4 of 8, truncation 6;',
    '1,292 text tokens) cuts its notices\' holders to "(C) 1984-2008 Free Software Foundation …" (the fact has ", Inc."), cuts',
    'the GPL\'s notice before "either version 3 of the License, or (at your option) any later version", and leaves out its',
    '`Source` address (a bare address, left out since round 6) and the manual\'s GFDL-NIV-1.3; adduser\'s (5 of 7) loses its',
    '`Upstream-Source` address and Marc Haber among thirteen holders. READMEs (10 of 16): date-bengali-revised\'s (5 of 8)',
    'loses three of its code lines (the import, `cal.fromGregorian(2018, 4, 14)`, `cal.format(…)`), elliptic\'s (5 of 8)',
    '`new EC(\'secp256k1\')`, `require(\'elliptic\').eddsa` and its licence line. HTML pages (10 of 16): Node.js\'s Console',
    'page (6 of 8) loses the constructor\'s signature `new Console(stdout[, stderr][, ignoreErrors])` and `console.warn()`\'s',
    'alias; valgrind\'s README.solaris (4 of 8, read as plain text) its `./configure CC=\'gcc -m64\' …` line, the unlinkat',
    'syscall numbers, "Work-In-Progress" and the GDB advice. Changelogs (14 of 16): appstream\'s Debian changelog loses an',
    'older upload\'s entry and the trailing `apt changelog libappstream4`.',
  ].join('\n'),
};

/** Fresh set 12 as measured once, clean, with round 13's final code (commit b3ce32d's distiller; docs/distill-savings.md at commit 144a3c3 lists it document by document). */
export const FRESH12_ONCE: Record<Kind | 'all', { kept: number; truncationKept: number; facts: number; medianSaved: number }> = {
  readme: { kept: 8, truncationKept: 7, facts: 16, medianSaved: 77.55 },
  html: { kept: 10, truncationKept: 9, facts: 16, medianSaved: 90.0 },
  changelog: { kept: 12, truncationKept: 10, facts: 16, medianSaved: 86.4 },
  licence: { kept: 8, truncationKept: 10, facts: 16, medianSaved: 81.6 },
  man: { kept: 10, truncationKept: 10, facts: 15, medianSaved: 88.75 },
  reference: { kept: 8, truncationKept: 6, facts: 16, medianSaved: 76.05 },
  all: { kept: 56, truncationKept: 52, facts: 95, medianSaved: 82.45 },
};

/** Fresh set 12's measurement in round 13: the code it was measured with, and what its losses showed (round 14 tuned on them). */
export const FRESH12_MEASURED = {
  code: 'the distiller of commit b3ce32d, unchanged since; measured by the commit that made this set the headline',
  note: [
    'Measured once: 56 of 95 facts kept (58.9%), plain truncation at the same length 52 (54.7%), median saving 82.5%.',
    '**The issue\'s goals are not met**: 58.9% of the facts, not 90% (fresh sets 9, 10 and 11 measured once kept 55 of 96',
    'each), and the answer is behind truncation on licences (8 against 10) and level with it on man pages (10 against 10);',
    'it is ahead on READMEs (8 against 7), HTML pages (10 against 9), changelogs (12 against 10) and reference pages (8',
    'against 6), and 4 facts ahead overall. The median saving, 82.5%, meets the 80% asked; fastify\'s Fluent Schema guide',
    '(844 text tokens) saves 69.7% and @colors/colors\' README (903) 75.0%, short documents at the 300-token floor. Man pages',
    'are level with truncation on this draw (behind on fresh sets 9 to 11). This round\'s brief listed fresh set 11\'s loss',
    'classes before these facts were written, and their writer had read them.',
    '',
    'Licences (8 of 16, truncation 10): six of the two copyright files\' facts were written as the files\' field lines, with',
    'their labels ("Upstream-Name: talloc", "License: LGPL-3.0+", "License: GPL-3.0+", "License: BSD-3", "Upstream-Name:',
    'Nettle", "License: LGPL-3+ or GPL-2+"), where the earlier sets\' licence facts give a name alone ("LGPL-3+ or GPL-2+").',
    'The answer names all six without the label (the title "talloc: Debian copyright", the notices "LGPL-3.0+: 2004-2005',
    'Andrew Tridgell …", "GPL-3.0+: …" and "BSD-3: …", the header item "License — LGPL-3+ or GPL-2+"), so the checker, which',
    'looks for a fact as written, counts them lost, while truncation reads the files\' own lines near their top. Read as the',
    'earlier sets\' facts are written, the licences would keep 14 of 16; the figures stay as measured and the facts as',
    'committed. Beyond that, talloc\'s notices spend their share on the BSD-3 holders of its waf build files, and "This file',
    'is not used when building the Debian package." and the LGPL-3 path are lost.',
    '',
    'What else it lost, listed after the measurement (nothing was changed for it): READMEs (8 of 16, truncation 7):',
    '@colors/colors\' (2 of 8, truncation 2) opens with a list of 50 colour and style names, one word an item, which the',
    'opening quotes until its share ends; its tagline is a heading ("## get color and style in your node.js console", and',
    'the opening drops headings) and its usage is in code blocks (`require(\'@colors/colors/safe\')`, `node myapp.js',
    '--no-color`, `FORCE_COLOR=1 node myapp.js`, `colors.setTheme`), all lost; @fastify/deepmerge\'s (6 of 8) loses',
    'mergeArray\'s default and the Date and RegExp exception. Reference pages (8 of 16, truncation 6): fastify\'s Plugins',
    'guide (2 of 8, truncation 4; 3,476 text tokens), a walkthrough, quotes its introduction and the prose between its',
    'examples, and loses the facts in its code (the plugin signature `module.exports = function (fastify, options, done)',
    '{}`, `fastify.decorate(\'util\', …)`, `require(\'fastify-plugin\')`) and two rules later in the text (encapsulation',
    'applies "to the ancestors and siblings, but not the children"; `after` registers a callback run just after a',
    'register): the walkthrough class fresh set 11 showed. Fluent Schema (6 of 8) loses a comment in its code and',
    '`fastify.addSchema(commonSchemas)`. HTML pages (10 of 16, truncation 9): valgrind\'s README.android (3 of 8,',
    'truncation 5) is one `<pre>` of shell lines with `#` comments, read as plain text: its key points are comment lines cut',
    'mid-sentence with their "#", its options keywords without their values (`--kernel-variant`, `--with-tmpdir`), and the',
    'NDK versions and the GDBserver note are lost; Node.js\'s Inspector page keeps 7 of 8 (not `node',
    '--inspect=[[host:]port]`). Man pages (10 of 15, truncation 10): systemd-notify\'s (3 of 8, truncation 3) gives its',
    'options as keywords (`--ready`, `--pid`, `--booted`) without their meanings, so "equivalent to systemd-notify READY=1",',
    'the main PID, `--booted`\'s return value, `--no-block`\'s race and `--uid`\'s meaning are lost; gencat\'s (165 text',
    'tokens) is served whole, 7 of 7. Changelogs (12 of 16, truncation 10): xcb-util\'s Debian changelog (6 of 8) loses two',
    'older uploads\' entries (0.3.8\'s split into modules, the initial release); has-symbols\' (6 of 8) loses v1.0.2\'s fix',
    'and gives v1.0.0 and its date apart, not as the heading writes them ("v1.0.0 - 2016-09-19").',
  ].join('\n'),
};

/** Fresh set 11 as measured once, clean, with round 12's final code (commit 0fc9fca's distiller; docs/distill-savings.md at commit 6717508 lists it document by document). */
export const FRESH11_ONCE: Record<Kind | 'all', { kept: number; truncationKept: number; facts: number; medianSaved: number }> = {
  readme: { kept: 10, truncationKept: 4, facts: 16, medianSaved: 81.0 },
  html: { kept: 8, truncationKept: 8, facts: 16, medianSaved: 91.8 },
  changelog: { kept: 10, truncationKept: 9, facts: 16, medianSaved: 86.8 },
  licence: { kept: 13, truncationKept: 11, facts: 16, medianSaved: 84.2 },
  man: { kept: 9, truncationKept: 11, facts: 16, medianSaved: 81.9 },
  reference: { kept: 5, truncationKept: 4, facts: 16, medianSaved: 78.9 },
  all: { kept: 55, truncationKept: 47, facts: 96, medianSaved: 83.7 },
};

/** Fresh set 11's measurement in round 12: the code it was measured with, and what its losses showed (round 13 tuned on them). */
export const FRESH11_MEASURED = {
  code: 'the distiller of commit 0fc9fca, unchanged since; measured by the commit that made this set the headline',
  note: [
    'Measured once: 55 of 96 facts kept (57.3%), plain truncation at the same length 47 (49.0%), median saving 83.7%.',
    '**The issue\'s goals are not met**: 57.3% of the facts, not 90% (as fresh sets 9 and 10 measured once, 55 of 96 each), and',
    'the answer is behind truncation on man pages (9 against 11) and level with it on HTML pages (8 against 8); it is ahead on',
    'READMEs (10 against 4), changelogs (10 against 9), licences (13 against 11) and reference pages (5 against 4), and 8',
    'facts ahead overall. The median saving, 83.7%, meets the 80% asked; fastify\'s Detecting When Clients Abort (1,113 text',
    'tokens) saves 76.3% and gdk-pixbuf-csource\'s page (461 text tokens) 77.3%, short documents at the 300-token floor.',
    'Changelogs moved from behind truncation (fresh set 10) to ahead on this draw; man pages are behind on every fresh set since',
    'fresh set 9. Truncation\'s README figure is flattered the other way: @opentelemetry/api\'s README opens with a raw HTML',
    '`<img>` whose `src` is a long data URL, which the Markdown reader leaves in the readable text, so truncation at 557 tokens',
    'reads little else (0 of 8; the answer keeps 8 of 8).',
    '',
    'What it lost, listed after the measurement (nothing was changed for it): valgrind\'s Writing a New Tool chapter most (1 of',
    '8, truncation 2): its summary reads the introduction\'s paragraphs and its key points are the setup steps ("Copy',
    'none/Makefile.am into foobar/", "Edit configure.ac, …"), so the four functions a tool must define, the test command',
    '`inst/bin/valgrind --tool=foobar date` (a shell line indented in a `<pre>` after "You can test it with a command like:"),',
    'VEX IR, the C-library rule, `--trace-flags`, OProfile and the interface policy are lost. Man pages (9 of 16, truncation',
    '11): systemd-mount\'s (4 of 8, truncation 5) opens with its three synopsis lines and two description paragraphs, then',
    'quotes options\' first sentences, losing `/run/media/system/`, "It is the same as systemd-mount --umount", the idle',
    'timeout\'s "infinity" default and the removable device\'s implied `--timeout-idle-sec=1s`; gdk-pixbuf-csource\'s (5 of 8,',
    'truncation 6; 461 text tokens) lists its options as keywords without `--name=identifier`, "Generate static symbols',
    '(default)" and its BUGS sentence. Reference pages (5 of 16, truncation 4): fastify\'s Delay Accepting Requests (2 of 8;',
    '4,885 text tokens) spends its summary on the introduction and its key points on the walkthrough\'s prose, losing the',
    'versions list (`fastify 4.0.0-rc.1`), the 5-second provider delay, the 503 response and `Retry-After: 5000` (in `sh`',
    'blocks of HTTP output), and the plugin factory; Detecting When Clients Abort (3 of 8) loses its code walkthrough\'s list',
    '(the 3-second delayed response, the onRequest hook), the Postman test and the false detection. READMEs (10 of 16):',
    'decimal.js\'s (2 of 8, truncation 4) has no top heading, so its title is "Features" and its summary the feature list; its',
    'one command fact is the minifier\'s install line (`npm install uglify-js -g`), not `npm install decimal.js`, and the',
    'precision advice, immutability, `Decimal.set(…)` and the licence are lost. Changelogs (10 of 16): java-atk-wrapper\'s',
    'Debian changelog (4 of 8, truncation 3) keeps the newest upload and its maintainer but not three older entries nor the',
    'trailing comment\'s `apt changelog libatk-wrapper-java`; yargs\'s (6 of 8) loses 15.2.0\'s strictCommands() and 14.0.0\'s',
    'breaking change. HTML pages (8 of 16): besides valgrind\'s chapter, Node.js\'s HTTPS page (7 of 8) leaves out the',
    'requestTimeout\'s history line, by design (API history). Licences lost 3 of 16: cmake\'s Comments field (Kitware\'s',
    'sponsors) and systemd\'s `debian/*` holder (Tollef Fog Heen, the last stanza).',
  ].join('\n'),
};

/**
 * Fresh set 10 as measured once, clean, with round 11's final code (commit fd93b47's distiller; docs/distill-savings.md
 * at commit 3829a12 lists it document by document).
 */
export const FRESH10_ONCE: Record<Kind | 'all', { kept: number; truncationKept: number; facts: number; medianSaved: number }> = {
  readme: { kept: 7, truncationKept: 6, facts: 16, medianSaved: 82.8 },
  html: { kept: 10, truncationKept: 6, facts: 16, medianSaved: 89.6 },
  changelog: { kept: 10, truncationKept: 11, facts: 16, medianSaved: 78.0 },
  licence: { kept: 12, truncationKept: 11, facts: 16, medianSaved: 76.4 },
  man: { kept: 10, truncationKept: 11, facts: 16, medianSaved: 86.8 },
  reference: { kept: 6, truncationKept: 5, facts: 16, medianSaved: 81.4 },
  all: { kept: 55, truncationKept: 50, facts: 96, medianSaved: 83.8 },
};

/** Fresh set 10's measurement in round 11: the code it was measured with, and what its losses showed (round 12 tuned on them). */
export const FRESH10_MEASURED = {
  code: 'the distiller of commit fd93b47, unchanged since; measured by the commit that made this set the headline',
  note: [
    'Measured once: 55 of 96 facts kept (57.3%), plain truncation at the same length 50 (52.1%), median saving 83.8%.',
    '**The issue\'s goals are not met**: 57.3% of the facts, not 90% (as fresh set 9 measured once, 55 of 96), and the answer',
    'is behind truncation on two kinds, changelogs (10 against 11) and man pages (10 against 11); it is ahead on READMEs (7',
    'against 6), HTML pages (10 against 6), licences (12 against 11) and reference pages (6 against 5), and 5 facts ahead',
    'overall. The median saving, 83.8%, meets the 80% asked; grep\'s Debian changelog (571 text tokens) saves 70.5% and',
    'libglvnd\'s copyright file 72.4%, short documents at the 300-token floor. Round 11 took the sets it was tuned on from',
    '1,253 to 1,256 of 1,507 facts; two of this set\'s facts depend on one of its changes: grep\'s changelog facts were written',
    'as its header and trailer spell them ("grep (3.8-5)", "Tue, 24 Jan 2023"), as fresh set 9\'s libxcb facts were, by a',
    'writer who had read that loss named in the round\'s brief, and the round\'s Debian header change is what keeps both (with',
    'round 10\'s reader the answer would give "3.8-5" and "24 Jan 2023"; truncation finds the header only since that change).',
    '',
    'What it lost, listed after the measurement (nothing was changed for it): reference pages most (6 of 16, truncation 5):',
    'fastify\'s style guide (2 of 8, truncation 2) spends its opening on the "You need to know the following" list (JavaScript,',
    'Node.js, Git…) and its key points quote a section\'s explanation ("Contractions are the shortened version of…") where the',
    'section\'s rule follows it ("Avoid contractions to provide a more formal tone"), so five of its rules are lost;',
    'fastify\'s serverless guide (4 of 8) loses its deploy commands (`gcloud functions deploy`, `firebase deploy --only',
    'functions`, each in a code block of its own section; neither is in the answer), `npm i @fastify/aws-lambda`',
    '(an install command inside a sentence, a class known from fresh sets 8 and 9) and API Gateway\'s 29-second timeout.',
    'Changelogs (10 of 16, truncation 11): wink-nlp\'s gives each release a title as a Markdown link heading above its',
    'version heading ("# [Word embeddings have arrived!](…)" over "## Version 2.0.0 March 24, 2024"); the titles are',
    'dropped, and its releases show one or two entries each, so 2.0.0\'s word embeddings and 1.12.1\'s Node.js 18 are lost',
    '(4 of 8, truncation 6); grep\'s (6 of 8) loses two entries of older uploads. Man pages (10 of 16, truncation 11):',
    'systemd-measure\'s (5 of 8, truncation 6) loses `status`\'s "default command if none is specified" and two notes under',
    '`sign` and the key options, and its key points read "the local systems TPM2" and "its particularly useful": the',
    'troff reader drops the apostrophe DocBook writes as `\\*(Aq`; gdbus\'s (5 of 8, truncation 5) loses `wait`\'s meaning, an',
    'example command and `--recurse`\'s. READMEs (7 of 16, truncation 6): @noble/ciphers\' (3 of 8, truncation 3; 5,316 text',
    'tokens) keeps its feature list and install line but none of the later sections\' advice (which cipher to pick, 12-byte',
    'nonces, the audit\'s version and date, no dependencies, T-tables); complex.js\'s (4 of 8) loses the parser\'s three input',
    'types, v1.9.0\'s output and the acot branch notes. HTML pages (10 of 16, truncation 6): the BBV manual (4 of 8) loses its',
    'overview\'s 90-95% and the figures of its later sections (a factor of 40, the tested platforms, threads); Node.js\'s permissions page (6 of',
    '8) leaves out "Added in: v20.0.0" as API history, by design, and its last section\'s symbolic links. Licences lost 4 of',
    '16: libglvnd\'s notices (5 of 8, truncation 7) name MIT\'s and Apache-2.0\'s holders but not the later stanzas\' (Troy D.',
    'Hanson\'s BSD-1-clause, the Debian packager), and svt-av1\'s misses its licence\'s capitalised patent clause.',
  ].join('\n'),
};

/**
 * Fresh set 9 as measured once, clean, with round 10's final code (commit d9368f8's distiller; docs/distill-savings.md
 * at commit f86cded lists it document by document).
 */
export const FRESH9_ONCE: Record<Kind | 'all', { kept: number; truncationKept: number; facts: number; medianSaved: number }> = {
  readme: { kept: 8, truncationKept: 9, facts: 16, medianSaved: 80.6 },
  html: { kept: 6, truncationKept: 7, facts: 16, medianSaved: 90.8 },
  changelog: { kept: 8, truncationKept: 10, facts: 16, medianSaved: 84.5 },
  licence: { kept: 13, truncationKept: 10, facts: 16, medianSaved: 79.4 },
  man: { kept: 8, truncationKept: 13, facts: 16, medianSaved: 81.2 },
  reference: { kept: 12, truncationKept: 4, facts: 16, medianSaved: 81.3 },
  all: { kept: 55, truncationKept: 53, facts: 96, medianSaved: 82.0 },
};

/** Fresh set 9's measurement in round 10: the code it was measured with, and what its losses showed (round 11 tuned on them). */
export const FRESH9_MEASURED = {
  code: 'the distiller of commit d9368f8, unchanged since; measured by the commit that made this set the headline',
  note: [
    'Measured once: 55 of 96 facts kept (57.3%), plain truncation at the same length 53 (55.2%), median saving 82.0%.',
    '**The issue\'s goals are not met**: 57.3% of the facts, not 90%, the least of any fresh set measured once, and the answer',
    'is behind truncation on four kinds: READMEs (8 against 9), HTML pages (6 against 7), changelogs (8 against 10) and man',
    'pages (8 against 13); it is ahead on licences (13 against 10) and reference pages (12 against 4), and 2 facts ahead',
    'overall. The median saving, 82.0%, meets the 80% asked. For comparison, measured after this one and changing nothing,',
    'round 9\'s final code (main at commit 79222a7) keeps 54 of 96 on this set (licences 12, every other kind as now;',
    'truncation 53), at the same median saving: round 10\'s reader fixes gain one fact on documents neither round was tuned',
    'on (llvm\'s copyright file gains two holders, libss2\'s loses Andrew Tridgell). Round 10 took the sets it was tuned on',
    'from 1,193 to 1,198 of 1,411 facts; its changes are mostly misreadings fixed, which this set\'s losses show are not the',
    'largest class.',
    '',
    'What it lost, listed after the measurement (nothing was changed for it): man pages most (8 of 16, truncation 13):',
    'sessreg\'s page (3 of 8, truncation 6) opens with its synopsis, a line of eleven bracketed options, and gives',
    '"X Version 11" as its version (the `.TH` line has the version where a date goes and the suite where the source goes);',
    'its usage line (`sessreg -a -l $DISPLAY -x /etc/X11/xdm/Xservers $USER`, a `$` variable the command pattern does not',
    'take), `-w`\'s default `/var/log/wtmp`, "One of -a/-d must be specified" and its author are lost; gapplication\'s',
    '(5 of 8, truncation 7) opens with its seven synopsis lines and makes an entity of "Prints the GLib", losing "ships as',
    'part of GLib", `list-apps`\'s meaning and the `.desktop` example\'s `Exec=` line. Changelogs (8 of 16, truncation 10):',
    'hasown\'s (4 of 8) shows its two newest releases and spends its opening on Keep a Changelog\'s boilerplate, so the',
    'older releases\' changes and the first release\'s date are lost; libxcb\'s Debian changelog (4 of 8) gives "1.15-1" and',
    '"04 Aug 2022" where the facts read the changelog\'s header ("libxcb (1.15-1)", "Thu, 04 Aug 2022"), which the',
    'checker does not match, and two older releases\' changes. HTML pages (6 of 16, truncation 7): valgrind\'s',
    'README_MISSING_SYSCALL_OR_IOCTL (2 of 8) loses its underlined title, the two jobs of a wrapper, the steps\' commands',
    'and the `--sim-hints=lax-doors` option, its entities taken by macro-name fragments (LIN, GEN, XY); Node.js\'s',
    'internationalization page (4 of 8) quotes 17 sentences but not the configure option\'s "(default)", the precedence of',
    '`--icu-data-dir`, `npm i full-icu` (an install command inside a sentence, a class known from fresh set 8) or the',
    '`typeof Intl` check in code. READMEs (8 of 16, truncation 9): ens-normalize\'s lists are indented with tabs, which the',
    'Markdown reader does not take as nested lists, so each list is one run-on line with its `*` marks, and its API',
    'guarantees are comments in a code block (truncation misses them too); color-support\'s return levels (`0` - No color',
    'support … `3` - 16 million (true) color support) are read as an exit-status table, rewritten `3: 16 million…`, and its',
    '`- default false` options are not definitions. Licences lost 3 of 16 (a stanza\'s comment, a later stanza\'s holder,',
    'Andrew Tridgell, and llvm\'s first holder cut a word short: "2003-2017 University of Illinois at …"), reference pages',
    '4 of 16 (three of fastify\'s V4 migration changes and the Kubernetes figure).',
  ].join('\n'),
};

/**
 * Fresh set 8 as measured once, clean, with round 9's final code (commit 0532ec2's distiller; docs/distill-savings.md
 * at commit 12eb917 lists it document by document).
 */
export const FRESH8_ONCE: Record<Kind | 'all', { kept: number; truncationKept: number; facts: number; medianSaved: number }> = {
  readme: { kept: 10, truncationKept: 11, facts: 16, medianSaved: 83.5 },
  html: { kept: 10, truncationKept: 14, facts: 16, medianSaved: 91.0 },
  changelog: { kept: 14, truncationKept: 11, facts: 15, medianSaved: 88.5 },
  licence: { kept: 13, truncationKept: 9, facts: 16, medianSaved: 80.0 },
  man: { kept: 9, truncationKept: 4, facts: 16, medianSaved: 77.5 },
  reference: { kept: 10, truncationKept: 9, facts: 16, medianSaved: 80.1 },
  all: { kept: 66, truncationKept: 58, facts: 95, medianSaved: 81.0 },
};

/** Fresh set 8's measurement in round 9: the code it was measured with, and what its losses showed (round 10 tuned on them). */
export const FRESH8_MEASURED = {
  code: 'the distiller of commit 0532ec2, unchanged since; measured by the commit that made this set the headline',
  note: [
    'Measured once: 66 of 95 facts kept (69.5%), plain truncation at the same length 58 (61.1%), median saving 81.0%.',
    "**The issue's goals are not met**: 69.5% of the facts, not 90%, and the answer is behind truncation on HTML pages (10",
    'against 14) and READMEs (10 against 11); it is ahead on the four other kinds. The median saving, 81.0%, meets the 80%',
    "asked, with less margin than fresh set 7 had (83.0%). For comparison, measured after this one and changing nothing, round",
    "8's final code (main at commit cb019bf) keeps 62 of 95 (65.3%) on this set (READMEs 10, HTML 11, changelogs 14, licences",
    '12, man pages 5, reference pages 10; truncation 58), at a median saving of 81.0%: round 9 keeps 4 facts more on documents',
    'neither round was tuned on, all on the kinds whose readers it changed (man pages 5 to 9, licences 12 to 13), and one',
    "fewer on HTML pages (valgrind's FreeBSD README, 4 to 3). Round 9 took the sets it was tuned on from 1,110 to 1,127 of",
    '1,316 facts; with 12 documents, one document moves a kind\'s share by several points.',
    '',
    "What it lost, listed after the measurement (nothing was changed for it): valgrind's FreeBSD README, a plain-text file set",
    'line by line in HTML (3 of 8, truncation 6), is now read as paragraphs, but its credits, one name a line, are joined into one',
    'paragraph whose names make one entity of 90 tokens, and the opening ends before its list of known limitations (Capsicum,',
    "OpenMP, threads), its key points quoting developer notes instead; Node.js's trace events page keeps 7 of 8 (truncation 8):",
    '"Added in: v10.0.0" is left out as API history by design; systemd-machine-id-setup\'s man page (4 of 8, truncation 2) leaks',
    "troff escapes (`h'-04' 1.h'+01'` before each step of its numbered list, `m[blue]`), on which the opening spends its last",
    "tokens before the list's steps (the D-Bus machine ID, a random ID); the meaning of its `--commit` option (which the opening",
    'names, so coverage counts it as said) and its exit status are lost; callgrind_control\'s (5 of 8, truncation 2) lists',
    '`--zero` and `--kill` as keywords without their one-line meanings and `--dump[=<desc>]` as `--dump` (a bracketed',
    "argument in angle brackets is not kept); the MCP SDK's README (5 of 8, truncation 6) spends its opening on its",
    'maintenance notice, which holds three facts, and loses a list item ("for remote servers (recommended)"), a table cell',
    '("falls back to SSE on 4xx responses") and "Zod v3.25 or later"; fastify\'s database guide (3 of 8, truncation 3) quotes',
    'a code example in its opening and lists the methods its examples call as keywords, while its install commands set as',
    'code inside sentences (`npm i pg @fastify/postgres`) are not kept as commands, nor Postgrator\'s file-name pattern;',
    "date-chinese's README (5 of 8, truncation 5) loses its time zone rule, the Korean epoch and its licence line (a copyright",
    'line, left out outside a licence); the gnupg copyright file (5 of 8, truncation 5) cuts each stanza\'s holders at 40',
    'characters ("1992, 1995-2020, Free Software …") and its notices reach six of its nine licences (not CC0-1.0), the Debian',
    'packagers\' stanza given as "…"; the oldest release date of get-intrinsic\'s changelog and `node --test --watch` of',
    "fastify's testing guide (a JSON line in inline code).",
  ].join('\n'),
};

/**
 * Fresh set 7 as measured once, clean, with round 8's final code (commit 411bf39's distiller), by the checker of
 * that time, which looked for facts in the answer's JSON with its escapes (docs/distill-savings.md at commit 97cfbda
 * lists it document by document).
 */
export const FRESH7_ONCE: Record<Kind | 'all', { kept: number; truncationKept: number; facts: number; medianSaved: number }> = {
  readme: { kept: 10, truncationKept: 8, facts: 16, medianSaved: 85.6 },
  html: { kept: 9, truncationKept: 11, facts: 16, medianSaved: 91.8 },
  changelog: { kept: 13, truncationKept: 11, facts: 14, medianSaved: 84.9 },
  licence: { kept: 10, truncationKept: 7, facts: 16, medianSaved: 79.0 },
  man: { kept: 11, truncationKept: 8, facts: 16, medianSaved: 73.4 },
  reference: { kept: 12, truncationKept: 8, facts: 16, medianSaved: 73.5 },
  all: { kept: 65, truncationKept: 53, facts: 94, medianSaved: 83.0 },
};

/** Fresh set 7's measurement: the code it was measured with, and what was found after (nothing is tuned on it). */
export const FRESH7_MEASURED = {
  code: "the distiller of commit 411bf39, unchanged since but for its header comment (commit 1fa2a6f); measured by the commit that made this set the headline, 8c71383",
  note: [
    'Measured once: 65 of 94 facts kept (69.1%), plain truncation at the same length 53 (56.4%), median saving 83.0%.',
    "**The issue's goals are not met**: 69.1% of the facts, not 90%, and the answer is behind truncation on HTML pages (9",
    'against 11); it is ahead on the five other kinds. The median saving, 83.0%, meets the 80% asked. For comparison,',
    "measured after this one and changing nothing, round 7's final code (main at commit 9a60db5) keeps 60 of 94 (63.8%) on",
    'this set (READMEs 8, HTML 9, changelogs 13, licences 8, man pages 10, reference pages 12), at the same median saving:',
    "round 8's method keeps 5 facts more on documents neither round was tuned on. Round 8 took the sets it was tuned on from",
    '1,007 to 1,044 of 1,222 facts (table below); with 12 documents, one document moves a kind\'s share by several points, so',
    'this is a modest sign that part of the round\'s gain carries over, not a measure of how much.',
    '',
    'What it lost, listed after the measurement (nothing was changed for it): the README of @ip-location-db/asn (2 of 8 kept,',
    'truncation 5) spends its opening on a warning box and the header row of a download table, gives "32bit" where the fact',
    'is "128bit unsigned integer" (the same sentence, the other clause) and the entity "CC BY" without its "4.0", and its',
    'CSV columns are in a code block; valgrind\'s README_DEVELOPERS page, a plain-text file set in `<pre>` (3 of 8, truncation',
    '5), is read line by line, so its key points are line fragments ("In addition to compiling, linking and packaging',
    'everything up, the command") and its commands (`make dist BUILD_ALL_DOCS=no`, `perl tests/vg_regtest`) are not kept',
    'as commands; one of its facts, `"make install"-ed valgrind`, is in the answer\'s key points but was not matched there, as',
    'the checker then looked for facts in the answer\'s JSON text, where its quotes are escaped (truncation, plain text, was not',
    'affected). Found after the measurement; the checker was fixed after the round (the answer\'s string escapes are undone',
    'before facts are looked for, commit 05788ed), which finds that fact and no other on any set: with the same distiller',
    'the set reads 66 of 94 (HTML pages 10 against 11). The figures above stay as measured. Also lost: two later sentences of',
    "Node.js's stability index (the Stable and Legacy levels); the licences' later copyright holders (Thomas E. Dickey,",
    'Oracle, the VideoLAN and dav1d authors, Dylan Aïssi) and a stanza\'s `public-domain`; callgrind_annotate\'s options',
    '`--auto`, `--inclusive` and `--context=N` (given as `--context`), where the key points quote "This helps gauge the',
    'relative importance of each function and line." and who wrote the man page (4 of 8, truncation 3); the late anecdote',
    "facts of fastify's prototype-poisoning article (the Lob team, `bourne`, 20 hours).",
  ].join('\n'),
};

/** Fresh set 6 as measured once, clean, with round 7's final code (commit b919dd1's distiller; docs/distill-savings.md at commit 9a60db5 lists it document by document). */
export const FRESH6_ONCE: Record<Kind | 'all', { kept: number; truncationKept: number; facts: number; medianSaved: number }> = {
  readme: { kept: 10, truncationKept: 10, facts: 16, medianSaved: 73.2 },
  html: { kept: 10, truncationKept: 9, facts: 16, medianSaved: 88.8 },
  changelog: { kept: 14, truncationKept: 12, facts: 14, medianSaved: 84.0 },
  licence: { kept: 8, truncationKept: 8, facts: 15, medianSaved: 80.1 },
  man: { kept: 9, truncationKept: 10, facts: 16, medianSaved: 85.7 },
  reference: { kept: 7, truncationKept: 6, facts: 16, medianSaved: 79.0 },
  all: { kept: 58, truncationKept: 55, facts: 93, medianSaved: 82.5 },
};

/** Fresh set 6's measurement: the code it was measured with, and what was found after (nothing is tuned on it). */
export const FRESH6_MEASURED = {
  code: 'the distiller of commit b919dd1; measured in round 7 by the commit that made this set the headline',
  note: [
    'Measured once: 58 of 93 facts kept (62.4%), plain truncation at the same length 55 (59.1%), median saving 82.5%.',
    "**The issue's goals are not met**: 62.4% of the facts, not 90%; the answer is level with truncation on READMEs (10",
    'against 10) and licences (8 against 8) and behind it on man pages (9 against 10). The median saving, 82.5%, meets the 80%',
    'asked. Round 7 took the sets it was tuned on from 940 to 949 of 1,129 facts and fresh set 5 from 98 to 107 of 138 (table',
    'below); on this unseen set the answer keeps 62.4%, less than any earlier round\'s unseen figure (71.0% on fresh set 5, 68.4%',
    'on fresh set 4, 71.8% on fresh set 3): with 12 documents one document moves the share by several points, but nothing',
    'here says the round\'s gains carry over.',
    '',
    'What it lost, listed after the measurement (nothing was changed for it in round 7; round 8 measured its changes on it): READMEs\' plain sentences past their opening',
    '("automatically closed if the stream is garbage collected", "By default, Turndown does not keep any elements"); most',
    'section-opening rules of fastify\'s plugin guide ("we do not enforce any kind of license", "A plugin without tests will not',
    'be accepted"; 3 of 8 kept, truncation 2) and the later breaking changes of its v3 migration guide (`setValidatorCompiler`,',
    '`receivedEncodedLength`); valgrind\'s README page, a plain-text file set in HTML (2 of 8 kept, truncation 4); the',
    'later stanzas and licence texts of the two Debian copyright files (X Consortium, the `/usr/share/common-licenses/` paths);',
    'the later options and description facts of xfd\'s man page (`-start number`, xlsfonts; 4 of 8 kept, truncation 6).',
  ].join('\n'),
};

/** Fresh set 5 as measured once, clean, with round 6's final code (commit 125c9df's distiller; docs/distill-savings.md at commit 32d7cef lists it document by document). */
export const FRESH5_ONCE: Record<Kind | 'all', { kept: number; truncationKept: number; facts: number; medianSaved: number }> = {
  readme: { kept: 19, truncationKept: 16, facts: 22, medianSaved: 79.6 },
  html: { kept: 14, truncationKept: 15, facts: 23, medianSaved: 90.1 },
  changelog: { kept: 21, truncationKept: 18, facts: 21, medianSaved: 76.9 },
  licence: { kept: 16, truncationKept: 18, facts: 24, medianSaved: 75.4 },
  man: { kept: 16, truncationKept: 17, facts: 24, medianSaved: 82.6 },
  reference: { kept: 12, truncationKept: 11, facts: 24, medianSaved: 82.1 },
  all: { kept: 98, truncationKept: 95, facts: 138, medianSaved: 79.7 },
};

/** Fresh set 5's measurement: the code it was measured with, and what was found after (nothing is tuned on it). */
export const FRESH5_MEASURED = {
  code: 'the distiller of commit 125c9df; measured in round 6 by the commit that made this set the headline',
  note: [
    'Measured once: 98 of 138 facts kept (71.0%), plain truncation at the same length 95 (68.8%), median saving 79.7%.',
    "**The issue's goals are not met**: 71.0% of the facts, not 90%; truncation keeps more on HTML pages (15 against 14),",
    'licences (18 against 16) and man pages (17 against 16); the median saving, 79.7%, is just under the 80% asked (14 of these',
    '18 documents have under 1,500 text tokens, where the budget does not go below 300 tokens). Round 6 took the tuning',
    'sets from 822 to 842 of 991 facts and fresh set 4 from 91 to 103 of 133 (table below); on this unseen set the answer keeps',
    "71.0%, a little more than round 5's unseen figure (68.4% on fresh set 4) and about as much as round 4's (71.8% on fresh set 3):",
    'most of what the round gained on the sets it was tuned on does not carry over.',
    '',
    'What its losses showed, read after the measurement (round 7 then tuned on them): a page of help topics opens with its',
    "own table of contents (a list of links with no heading), which the opening quotes as its first 150 tokens (pino's help page,",
    '2 of 8 kept), and an object in a code example whose keys look like settings is served as defaults ("default trace:',
    '\'DEBUG\'"); the facts in the cells of a Markdown table (fastify\'s warning codes and what they mean) are given only as far as',
    'the opening reaches; a Debian copyright file lists each stanza\'s files, copyright and licence name twice (in the opening',
    'and as outline headings), so the licences of later stanzas (Expat, BSD-3-clause) are not reached; a short man page whose',
    'text (376 tokens) is not much over its 300-token budget keeps 3 facts where truncation, reading nearly all of it, keeps 6',
    '(jmap; its `-histo[:live]` is listed as the keyword `-histo`); a Node.js page\'s stability line ("Stability: 1.1 - Active',
    'development") is dropped by the HTML reader with its link, as on fresh set 4; a plain-word keyword list ("send", "sure",',
    '"please") fills the keywords of a page that defines no terms (libxslt\'s bug-reporting page).',
  ].join('\n'),
};

/** Fresh set 4's measurement in round 5: the code it was measured with, and what its losses showed (round 6 tuned on them). */
export const FRESH4_MEASURED = {
  code: 'commit 42497f8, whose distiller is that of commit e94d8df',
  note: [
    'Measured once: 91 of 133 facts kept (68.4%), plain truncation at the same length 86 (64.7%), median saving 80.1%.',
    '**The issue\'s goals are not met**: 68.4% of the facts, not 90%, and truncation still keeps more on licences and man',
    'pages. The median saving, 80.1%, just meets the 80% asked. On the sets round 5 tuned on the answer gained 3 to 9 facts',
    'each (table below), but on this unseen set it keeps less than fresh set 3 did unseen in round 4 (71.8%): what round 5',
    'fixed carries over only in part, and half of this set is under 1,500 tokens as sent, where little of a 300-token',
    'budget is left after the opening and the JSON\'s frame.',
    '',
    'What its losses showed, read after that measurement (round 6 then tuned on them): a fact inside a web address',
    '(`joyent/node`, in the licence\'s `https://github.com/joyent/node`) is blanked with the address, by design; a Debian',
    'machine-readable copyright file is read as plain text, its `Format:`/`Upstream-Name:` header lines fused into one',
    'paragraph that becomes its title, and its licence clauses as two long key points (3 of 8 kept, truncation 5); on a',
    'man page the opening cut a sentence short and the key points quoted it again whole, and an exit-status limit was',
    'given with its sentence clipped before its value (flock: 4 of 8, truncation 5); the API references lose values',
    'stated deep in the text (`length 32`, `500MB`) that neither a 300-550-token answer nor truncation reaches, and one',
    'in the output of an early code example (`DEP0005`) that truncation keeps and the answer\'s opening, ending a few',
    'paragraphs before it, does not.',
  ].join('\n'),
};

/** Fresh set 4 as measured once, clean, with round 5's final code (commit 42497f8, whose docs/distill-savings.md lists it document by document). */
export const FRESH4_ONCE: Record<Kind | 'all', { kept: number; truncationKept: number; facts: number; medianSaved: number }> = {
  readme: { kept: 14, truncationKept: 11, facts: 20, medianSaved: 78.6 },
  html: { kept: 15, truncationKept: 15, facts: 22, medianSaved: 90.1 },
  changelog: { kept: 21, truncationKept: 19, facts: 21, medianSaved: 81.9 },
  licence: { kept: 14, truncationKept: 15, facts: 22, medianSaved: 63.3 },
  man: { kept: 15, truncationKept: 17, facts: 24, medianSaved: 72.7 },
  reference: { kept: 12, truncationKept: 9, facts: 24, medianSaved: 82.3 },
  all: { kept: 91, truncationKept: 86, facts: 133, medianSaved: 80.1 },
};

/** Fresh set 3 as measured once, clean, with round 4's final code (commit e70c403, whose docs/distill-savings.md lists it document by document). */
export const FRESH3_ONCE: Record<Kind | 'all', { kept: number; truncationKept: number; facts: number; medianSaved: number }> = {
  readme: { kept: 17, truncationKept: 16, facts: 21, medianSaved: 77.7 },
  html: { kept: 11, truncationKept: 13, facts: 21, medianSaved: 90.0 },
  changelog: { kept: 17, truncationKept: 18, facts: 21, medianSaved: 67.7 },
  licence: { kept: 15, truncationKept: 15, facts: 19, medianSaved: -10.3 },
  man: { kept: 14, truncationKept: 12, facts: 21, medianSaved: 83.6 },
  reference: { kept: 15, truncationKept: 13, facts: 21, medianSaved: 79.1 },
  all: { kept: 89, truncationKept: 87, facts: 124, medianSaved: 78.4 },
};

/**
 * Fresh set 2 as measured once, clean, with round 3's final code (commit 37df0d0, whose docs/distill-savings.md
 * lists it document by document), before the one fix made after it.
 */
export const FRESH2_ONCE: Record<Kind | 'all', { kept: number; truncationKept: number; facts: number; medianSaved: number }> = {
  readme: { kept: 18, truncationKept: 15, facts: 30, medianSaved: 78.8 },
  html: { kept: 17, truncationKept: 17, facts: 28, medianSaved: 91.4 },
  changelog: { kept: 22, truncationKept: 24, facts: 28, medianSaved: 81.5 },
  licence: { kept: 22, truncationKept: 22, facts: 25, medianSaved: 43.8 },
  man: { kept: 16, truncationKept: 17, facts: 29, medianSaved: 70.9 },
  reference: { kept: 7, truncationKept: 6, facts: 15, medianSaved: 78.3 },
  all: { kept: 102, truncationKept: 101, facts: 155, medianSaved: 80.7 },
};

/**
 * The round-2 fresh set as measured, clean, with round 2's final code (docs/distill-savings.md at the end of
 * round 2): per kind, facts kept by the answer, by truncation at the same length, of how many, and the median
 * saving. Round 3 then tuned on its losses, so its current figures are in-sample.
 */
export const FRESH_ROUND_2: Record<Kind | 'all', { kept: number; truncationKept: number; facts: number; medianSaved: number }> = {
  readme: { kept: 18, truncationKept: 17, facts: 26, medianSaved: 82.8 },
  html: { kept: 16, truncationKept: 21, facts: 28, medianSaved: 91.3 },
  changelog: { kept: 18, truncationKept: 22, facts: 24, medianSaved: 77.5 },
  licence: { kept: 13, truncationKept: 12, facts: 18, medianSaved: 80.0 },
  man: { kept: 19, truncationKept: 14, facts: 28, medianSaved: 83.3 },
  reference: { kept: 11, truncationKept: 14, facts: 20, medianSaved: 80.8 },
  all: { kept: 95, truncationKept: 100, facts: 144, medianSaved: 81.3 },
};

/** The test set measured once before any heuristic saw it (commit a1fa1ab), and with the code before issue 24. */
const FIRST_TEST_RUN = { kept: 127, truncationKept: 131, facts: 206, budget: '15%' };
const BEFORE_ISSUE_24 = { kept: 78, facts: 206 };

/** A set at each detail: facts kept, truncation at the same length, median saving. */
export type DetailFigures = Record<Detail, GroupFigures>;
/** The test set and the unseen sets together, at each detail. */
export interface Details {
  test: DetailFigures;
  unseen: DetailFigures;
}

async function detailsOf(names: readonly CorpusName[]): Promise<DetailFigures> {
  const entries = [];
  for (const detail of DETAILS) entries.push([detail, figures((await Promise.all(names.map((name) => measureCorpus(name, { detail })))).flat())] as const);
  return Object.fromEntries(entries) as DetailFigures;
}

export async function measureDetails(): Promise<Details> {
  return { test: await detailsOf(['test']), unseen: await detailsOf(UNSEEN_SETS) };
}

function detailTable(details: DetailFigures): string {
  return [
    '| detail | Budget | Facts kept | Truncation at the same length | Median saving |',
    '|---|---|---:|---:|---:|',
    ...DETAILS.map((detail) => {
      const f = details[detail];
      const rule = BUDGETS[detail];
      return `| \`${detail}\` | ${Math.round(rule.share * 100)}% of the text (${Math.round(shareFor(rule, 1500) * 100)}% when short), ${rule.min}-${rule.max} tokens | ${share(f.kept, f.facts)} | ${share(f.truncationKept, f.facts)} | ${percent(f.medianSaved)} |`;
    }),
  ].join('\n');
}

/** The test and hold-out sets as round 2 found them (the code of main 252ab6b). */
const ROUND_2_START = { test: { kept: 168, truncationKept: 144, facts: 206 }, holdout: { kept: 58, truncationKept: 50, facts: 74 } };

function beforeTable(before: typeof FRESH_ROUND_2): string {
  const row = (label: string, f: (typeof FRESH_ROUND_2)['all']) => `| ${label} | ${share(f.kept, f.facts)} | ${share(f.truncationKept, f.facts)} | ${percent(f.medianSaved)} |`;
  return [
    '| Kind | Facts kept by distill_document | Facts kept by truncation at the same length | Median saving |',
    '|---|---:|---:|---:|',
    ...KINDS.map((kind) => row(kind, before[kind])),
    row('**all**', before.all),
  ].join('\n');
}

/** Per kind, how the answer stands against truncation: "ahead on readme (17 against 16), …". */
export function standing(measures: readonly DocumentMeasure[]): string {
  const groups = byKind(measures).map(([kind, group]) => ({ kind, f: figures(group) }));
  const said = (label: string, picked: typeof groups) => (picked.length ? `${label} ${picked.map(({ kind, f }) => `${kind} (${f.kept} against ${f.truncationKept})`).join(', ')}` : '');
  return [said('ahead on', groups.filter(({ f }) => f.kept > f.truncationKept)), said('level on', groups.filter(({ f }) => f.kept === f.truncationKept)), said('behind on', groups.filter(({ f }) => f.kept < f.truncationKept))].filter(Boolean).join('; ');
}

/** A fresh set that was once the headline: how it was drawn and measured once, what it lost, and its figures now. */
interface FormerHeadline {
  set: number;
  /** The round that drew it and measured it once. */
  round: number;
  /** The rounds that tuned on it since, as the heading says them: "round 12", "rounds 11 and 12". */
  tunedIn: string;
  /** Documents per kind, in words. */
  perKind: string;
  /** The commit that committed its facts before the distiller ran on them. */
  factsCommit: string;
  once: typeof FRESH_ROUND_2;
  measured: { code: string; note: string };
  /** What later rounds did with it, before its figures with the current code. */
  since: string;
}

function formerHeadlineSection(measures: readonly DocumentMeasure[], f: FormerHeadline): string {
  return `## Fresh set ${f.set} (round ${f.round}'s unseen set, tuned on in ${f.tunedIn})

${measures.length} documents in \`test/fixtures/distill-corpus-fresh${f.set}/\` (sources, versions, licences and how they were drawn in its
\`SOURCES.md\`), ${f.perKind} per kind. Their facts were written from the documents and committed (commit ${f.factsCommit}) before the
distiller first ran on them. **Measured once, with round ${f.round}'s final code** (${f.measured.code}):

${beforeTable(f.once)}

${f.measured.note}

${f.since} With the current code (in-sample):

${summaryTable(measures)}

${documentTable(measures)}`;
}

/** Round 15's choice of the scorer's share, leave-one-set-out (each set measured with weights trained without it). */
const LEAVE_ONE_SET_OUT = [
  'on fresh sets 9 to 13, the sets the rules were tuned on least, the rules alone kept 290 of their 480 facts and the',
  'rules with the scorer 312 (64, 61, 59, 66 and 62: +4.6 points); a prototype had measured 20%, 25% and 30% of the',
  'budget for the scorer at 307, 311 and 307, and the scorer alone, without the rules, at about 290. On the older sets,',
  'which the rules were tuned on for up to fourteen rounds, the rules\' quarter is worth more than the scorer\'s: all',
  'sixteen sets keep 1,450 of 1,889 facts leave-one-set-out, against 1,486 with the rules alone. Trained on 3, 6, 10 or',
  '15 of the other sets, the scorer keeps 311, 308, 309 and 312 on fresh sets 9 to 13: more labelled documents would not',
  'help these features.',
].join('\n');

/** What was measured after fresh set 14's measurement, leave-one-set-out on fresh sets 9 to 14, and not kept. */
const AFTER_FRESH14 = [
  'After fresh set 14\'s measurement, each change measured leave-one-set-out on fresh sets 9 to 14 (the scorer as',
  'shipped: 359 of 576 facts) and not kept, so fresh set 15 was measured with the same code: gradient-boosted trees over',
  'the same features instead of the logistic regression (depth 3, 150 trees: 359; depth 5, 300 trees: 363); the words',
  'of the unit and of its heading as features, those found in at least 20 or 60 documents (350, 352); features for a',
  'stated default, a heading naming an option or a code name, a list item\'s rank, the first section and the position',
  'per document kind (360); 40% of the budget to the scorer (355); the opening\'s share taken from the whole budget, not',
  'the rules\' 75% (361); and a short document (a budget of at least 30% or 40% of its text) answered by its opening read',
  'on verbatim (all seventeen sets: 1,466 and 1,486 of 1,985 facts, against 1,509). Neither the model nor these features',
  'is what limits the scorer.',
].join('\n');

/** Each set round 15 trained on or checked against, at the end of round 14 and now. */
function roundTable(sets: Record<TunedSet, readonly DocumentMeasure[]>): string {
  const names = Object.keys(ROUND14_END) as TunedSet[];
  const total = (pick: (f: { kept: number; facts: number }) => number, of: (name: TunedSet) => { kept: number; facts: number }) => names.reduce((sum, name) => sum + pick(of(name)), 0);
  const [before, now] = [total((f) => f.kept, (name) => ROUND14_END[name]), total((f) => f.kept, (name) => figures(sets[name]))];
  const facts = total((f) => f.facts, (name) => ROUND14_END[name]);
  return [
    '| Set | Facts kept, end of round 14 | Facts kept now | Truncation now | Median saving, round 14 | Median saving now |',
    '|---|---:|---:|---:|---:|---:|',
    ...names.map((name) => {
      const [before, now] = [ROUND14_END[name], figures(sets[name])];
      return `| ${name} | ${share(before.kept, before.facts)} | ${share(now.kept, now.facts)} | ${share(now.truncationKept, now.facts)} | ${percent(before.medianSaved)} | ${percent(now.medianSaved)} |`;
    }),
    `| **all** | ${share(before, facts)} | ${share(now, facts)} | | | |`,
  ].join('\n');
}

export function savingsReport(sets: Record<CorpusName, readonly DocumentMeasure[]>, details: Details): string {
  const { fresh15, fresh14, fresh13, fresh12, fresh11, fresh10, fresh9, fresh8, fresh7, fresh6, fresh5, fresh4, fresh3, fresh2, fresh, test, holdout, tuning } = sets;
  return `# distill_document: facts kept and tokens saved on real documents

Generated by \`npm run measure:distill\` (\`scripts/measure-distill.ts\`); do not edit by hand.

- Tokenizer: ${TOKENIZER.encoding} (${TOKENIZER.library}), the encoding of GPT-4o and later OpenAI models.
- Default budget (\`detail: "normal"\`): the answer may take ${Math.round(BUDGETS.normal.share * 100)}% of the document's text tokens, more for a
  short document (${Math.round(shareFor(BUDGETS.normal, 1500) * 100)}% at 1,500 text tokens and below, falling to ${Math.round(BUDGETS.normal.share * 100)}% at 6,000), and for a page sent with
  much markup up to 10% of the tokens sent (at most half its text); at least ${BUDGETS.normal.min} and at most ${BUDGETS.normal.max} (never more
  than ${MAX_OUTPUT_TOKENS}). See \`src/catalog/ai/distill/budget.ts\` for why.
- **Saving** = 1 − output / input: output is the answer's compact JSON without its \`tokens\` field, input the
  document as sent.
- **Facts kept**: the essential facts listed for each document in its corpus's \`facts.json\` (5-8 per
  document: what the thing is, the newest version and its date, numbers with their meaning, commands,
  options, limits, names) found in the answer, ignoring case and whitespace.
- **Truncation**: the same facts looked for in the document's readable text (markup removed by the same
  readers) cut after as many tokens as the answer has: what an agent gets by reading the first N tokens.

Which set says what:

| Set | Documents | Facts | Status |
|---|---:|---:|---|
| fresh 15 | ${fresh15.length} | ${figures(fresh15).facts} | **Unseen, clean when measured once** (the headline, with fresh set 14). Drawn, read and given its facts during round 15, after fresh set 14's measurement and before any further change to the distiller, and committed before the distiller ran on it (commit 57729e7); measured once with round 15's final code (${FRESH15_MEASURED.code}), the code fresh set 14 was measured with; its unit scorer was not trained on it. |
| fresh 14 | ${fresh14.length} | ${figures(fresh14).facts} | **Unseen, clean when measured once** (the headline). Drawn, read and given its facts at the start of round 15, before the round's first change to the distiller, and committed before the distiller ran on it (commit 3759794); measured once with round 15's final code (${FRESH14_MEASURED.code}); its unit scorer was not trained on it. |
| fresh 13 | ${fresh13.length} | ${figures(fresh13).facts} | Clean when measured once with round 14's final code (commit 39d4273's distiller; ${share(FRESH13_ONCE.all.kept, FRESH13_ONCE.all.facts)} then); trained on in round 15: looked at. |
| fresh 12 | ${fresh12.length} | ${figures(fresh12).facts} | Clean when measured once with round 13's final code (commit b3ce32d's distiller; ${share(FRESH12_ONCE.all.kept, FRESH12_ONCE.all.facts)} then); tuned on in rounds 14 and 15: looked at. |
| fresh 11 | ${fresh11.length} | ${figures(fresh11).facts} | Clean when measured once with round 12's final code (commit 0fc9fca's distiller; ${share(FRESH11_ONCE.all.kept, FRESH11_ONCE.all.facts)} then); tuned on in rounds 13 to 15: looked at. |
| fresh 10 | ${fresh10.length} | ${figures(fresh10).facts} | Clean when measured once with round 11's final code (commit fd93b47's distiller; ${share(FRESH10_ONCE.all.kept, FRESH10_ONCE.all.facts)} then); tuned on in rounds 12 to 15: looked at. |
| fresh 9 | ${fresh9.length} | ${figures(fresh9).facts} | Clean when measured once with round 10's final code (commit d9368f8's distiller; ${share(FRESH9_ONCE.all.kept, FRESH9_ONCE.all.facts)} then); tuned on in rounds 11 to 15: looked at. |
| fresh 8 | ${fresh8.length} | ${figures(fresh8).facts} | Clean when measured once with round 9's final code (commit 0532ec2's distiller; ${share(FRESH8_ONCE.all.kept, FRESH8_ONCE.all.facts)} then); tuned on in rounds 10 to 15: looked at. |
| fresh 7 | ${fresh7.length} | ${figures(fresh7).facts} | Clean when measured once with round 8's final code (commit 411bf39's distiller; ${share(FRESH7_ONCE.all.kept, FRESH7_ONCE.all.facts)} then, 66 with the checker fixed); tuned on in rounds 9 to 15: looked at. |
| fresh 6 | ${fresh6.length} | ${figures(fresh6).facts} | Clean when measured once with round 7's final code (commit b919dd1's distiller; ${share(FRESH6_ONCE.all.kept, FRESH6_ONCE.all.facts)} then); tuned on in rounds 8 to 15: looked at. |
| fresh 5 | ${fresh5.length} | ${figures(fresh5).facts} | Clean when measured once with round 6's final code (commit 125c9df's distiller; ${share(FRESH5_ONCE.all.kept, FRESH5_ONCE.all.facts)} then); rounds 7 to 15 tuned on it: looked at. |
| fresh 4 | ${fresh4.length} | ${figures(fresh4).facts} | Clean when measured once with round 5's final code (commit 42497f8; ${share(FRESH4_ONCE.all.kept, FRESH4_ONCE.all.facts)} then); rounds 6 to 15 tuned on it: looked at. |
| fresh 3 | ${fresh3.length} | ${figures(fresh3).facts} | Clean when measured once with round 4's final code (commit e70c403; ${share(FRESH3_ONCE.all.kept, FRESH3_ONCE.all.facts)} then); rounds 5 to 15 tuned on it: looked at. |
| fresh 2 | ${fresh2.length} | ${figures(fresh2).facts} | Clean when measured once with round 3's final code (commit 37df0d0; ${share(FRESH2_ONCE.all.kept, FRESH2_ONCE.all.facts)} then); one bug its losses showed was fixed after that, round 4 validated its opening rule on it, rounds 5 to 15 tuned on it: looked at. |
| fresh | ${fresh.length} | ${figures(fresh).facts} | Clean in round 2 (commit 16035fc; ${share(FRESH_ROUND_2.all.kept, FRESH_ROUND_2.all.facts)} then); round 3 fixed the failure classes seen in its losses, rounds 4 to 15 checked their changes on it: partly in-sample now. |
| test | ${test.length} | ${figures(test).facts} | Facts written before the distiller ran on it (commit 1578f95), then looked at while tuning in rounds 1, 2 and 3 and used to check the changes of rounds 4 to 15: partly in-sample. |
| hold-out | ${holdout.length} | ${figures(holdout).facts} | Measured once, clean, at the end of round 1 (78.4%); its losses were looked at while tuning in rounds 2 and 3 (and its figures in rounds 4 to 15): partly in-sample since. |
| tuning | ${tuning.length} | ${figures(tuning).facts} | The heuristics were developed on it: in-sample. |

## Unseen: fresh sets 14 and 15 together

Both sets measured once with round 15's final code, neither looked at before: ${share(figures([...fresh14, ...fresh15]).kept, figures([...fresh14, ...fresh15]).facts)} of the facts kept,
plain truncation at the same length ${share(figures([...fresh14, ...fresh15]).truncationKept, figures([...fresh14, ...fresh15]).facts)}, median saving ${percent(figures([...fresh14, ...fresh15]).medianSaved)}.

${summaryTable([...fresh14, ...fresh15])}

Against plain truncation at the same length: ${standing([...fresh14, ...fresh15])}.

At each \`detail\` (the same documents; each answer against truncation at its own length):

${detailTable(details.unseen)}

## Fresh set 15 (headline, with fresh set 14: documents the tool was not tuned on)

${fresh15.length} documents in \`test/fixtures/distill-corpus-fresh15/\` (sources, versions, licences and how they were drawn in its
\`SOURCES.md\`), two per kind, drawn at random from this machine's npm packages, Debian documentation and man pages, none of
them in another set (the reference list was used up and widened to any Markdown file of the npm packages, by a rule written
before the shuffle). Their facts were written from the documents by a helper who never saw the distiller's output, and committed
(commit 57729e7) before the distiller first ran on them. **Measured once, with round 15's final code** (${FRESH15_MEASURED.code}):

${summaryTable(fresh15)}

Against plain truncation at the same length: ${standing(fresh15)}.

${FRESH15_MEASURED.note}

${documentTable(fresh15)}

## Fresh set 14 (headline, with fresh set 15: documents the tool was not tuned on)

${fresh14.length} documents in \`test/fixtures/distill-corpus-fresh14/\` (sources, versions, licences and how they were drawn in its
\`SOURCES.md\`), two per kind, drawn at random from this machine's npm packages, Debian documentation and man pages, none of
them in another set. Their facts were written from the documents (read with \`cat\`, \`man\` and an HTML-to-text dump, not with
the distiller) by a helper who never saw the distiller's output, and committed (commit 3759794) before the distiller first ran
on them. **Measured once, with round 15's final code** (${FRESH14_MEASURED.code}):

${summaryTable(fresh14)}

Against plain truncation at the same length: ${standing(fresh14)}.

${FRESH14_MEASURED.note}

${documentTable(fresh14)}

## Round 15: a learned scorer for the last quarter of the budget

Fourteen rounds of rules each fixed the classes of loss one set showed, and each new set measured once kept 55-58% of
its facts (fresh sets 9 to 13): the rules learned their sets. Round 15 keeps them for 75% of the budget (outside a
changelog) and gives the rest to the units (sentences, headings, table rows, code lines) a logistic regression finds
likeliest to hold an essential fact, trained by \`npm run train:distill\` on every set above but the headline
(docs/tools/distill.md, Method, 8). Chosen leave-one-set-out, each set measured with weights trained without it
(\`npm run train:distill -- --by-set\`): ${LEAVE_ONE_SET_OUT}

${AFTER_FRESH14}

Every set below was trained on: its figures are in-sample for the scorer as they were for the rules.

${roundTable({ fresh13, fresh12, fresh11, fresh10, fresh9, fresh8, fresh7, fresh6, fresh5, fresh4, fresh3, fresh2, fresh, test, holdout, tuning })}

## Round 14

Round 14 drew fresh set 13 first. It then fixed the classes behind fresh set 12's named losses where a general rule kept
facts on the tuned sets, and measured and left the others. Kept: a changelog's span ("9 releases, from v1.0.0 -
2016-09-19 to v1.1.0 (2024-12-02).") names its oldest release as its header writes it and is said after the preface too,
not only in place of one (hasown, has-symbols and get-intrinsic gain a fact each, readability loses one to the line's
tokens); a commit's id closing an auto-changelog entry ("New add types 6469cbf") is dropped; a README of shell steps
explained in \`#\` comments is read as plain text (an HTML text laid out in lines is prose also when 20 or more of its
lines, a quarter at least, run in words, a comment's words counting) and its comments as prose, the lines between them
code (valgrind's README.android was read one line a paragraph); the opening quotes a run of six or more one-word list
items as one line, its first five and how many there are (@colors/colors' 50 colour names); a document may give five
commands as facts, not three (gdbus); and a sentence introducing the code after it ("…with the following signature",
"just use the decorate API:") carries the code's first line when that is one short statement of code with a
parenthesis (the Plugins guide's \`module.exports = function (fastify, options, done) {}\`, @colors/colors'
\`require('@colors/colors/safe')\`). Measured and not kept: a code block's defining lines (package requires, exported
signatures, each method's first call) as facts of their own (1,428 -> 1,421 facts, none of the targets kept: they crowd
out sentences and limits); a keyword left out when its option or term is served as a fact with its meaning (1,424 ->
1,382: readers' facts name options more often than they quote meanings); a manual's option facts weighted 1.5 or 3
times against their keywords (1,428 -> 1,422, 1,396); a key point opening on "This option…", "It is…" left out (1,424
-> 1,423); the oldest release's first entry in the span (1,428 -> 1,427); an option's value kept when it is also
written bare, up to 24 characters and as a path (no change). A DEP-5 copyright file's header fields were left as the
items "Field — value": written "Upstream-Name: talloc" they would give fresh set 12's checker its labelled facts, but a
reader learns nothing more from the label (the notices and title already name the licences and the package), so the
change would serve the checker, not the reader. The budget and the opening's share were left alone. The sets tuned on
go from 1,424 to 1,431 of 1,794 facts (fresh set 12 from 56 to 60), truncation from 1,197 to 1,196 (the table above
gives each set at the end of round 14).

${formerHeadlineSection(fresh13, { set: 13, round: 14, tunedIn: 'round 15', perKind: 'two', factsCommit: '4351266', once: FRESH13_ONCE, measured: FRESH13_MEASURED, since: 'Round 15 then trained its unit scorer on it, with the other sets.' })}

${formerHeadlineSection(fresh12, { set: 12, round: 13, tunedIn: 'rounds 14 and 15', perKind: 'two', factsCommit: '01cf99b', once: FRESH12_ONCE, measured: FRESH12_MEASURED, since: 'Round 14 then read its losses and tuned on them, and round 15 trained on it, with the other sets.' })}

${formerHeadlineSection(fresh11, { set: 11, round: 12, tunedIn: 'rounds 13 to 15', perKind: 'two', factsCommit: 'e3f6dd4', once: FRESH11_ONCE, measured: FRESH11_MEASURED, since: 'Round 13 then read its losses and tuned on them, and rounds 14 and 15 measured their changes on it, with the other sets.' })}

${formerHeadlineSection(fresh10, { set: 10, round: 11, tunedIn: 'rounds 12 to 15', perKind: 'two', factsCommit: '4b1a74a', once: FRESH10_ONCE, measured: FRESH10_MEASURED, since: 'Round 12 then read its losses and tuned on them, and rounds 13 and 14 measured their changes on it, with the other sets.' })}

${formerHeadlineSection(fresh9, { set: 9, round: 10, tunedIn: 'rounds 11 to 15', perKind: 'two', factsCommit: '09381ae', once: FRESH9_ONCE, measured: FRESH9_MEASURED, since: 'Round 11 then read its losses and tuned on them, and rounds 12 to 15 measured their changes on it, with the other sets.' })}

${formerHeadlineSection(fresh8, { set: 8, round: 9, tunedIn: 'rounds 10 to 15', perKind: 'two', factsCommit: 'b2ff206', once: FRESH8_ONCE, measured: FRESH8_MEASURED, since: 'Round 10 then read its losses and tuned on them, and rounds 11 to 15 measured their changes on it, with the other sets.' })}

${formerHeadlineSection(fresh7, { set: 7, round: 8, tunedIn: 'rounds 9 to 15', perKind: 'two', factsCommit: '07add20', once: FRESH7_ONCE, measured: FRESH7_MEASURED, since: 'Round 9 then read its losses and tuned on them, and rounds 10 to 15 measured their changes on it, with the other sets.' })}

${formerHeadlineSection(fresh6, { set: 6, round: 7, tunedIn: 'rounds 8 to 15', perKind: 'two', factsCommit: 'e09c58d', once: FRESH6_ONCE, measured: FRESH6_MEASURED, since: 'Rounds 8 to 15 then measured their changes on it, with the other sets.' })}

${formerHeadlineSection(fresh5, { set: 5, round: 6, tunedIn: 'rounds 7 to 15', perKind: 'three', factsCommit: '545e0d1', once: FRESH5_ONCE, measured: FRESH5_MEASURED, since: 'Rounds 7 to 15 then tuned on it, with the other sets.' })}

## Fresh set 4 (round 5's unseen set, tuned on in rounds 6 to 15)

${fresh4.length} documents in \`test/fixtures/distill-corpus-fresh4/\` (sources, versions and licences in its \`SOURCES.md\`), three per
kind. Their facts were written from the documents and committed (commit cf19227) before the distiller first ran on them.
**Measured once, with round 5's final code** (${FRESH4_MEASURED.code}):

${beforeTable(FRESH4_ONCE)}

${FRESH4_MEASURED.note}

Rounds 6 to 15 then tuned on it, with the other sets. With the current code (in-sample):

${summaryTable(fresh4)}

${documentTable(fresh4)}

## Fresh set 3 (round 4's unseen set, tuned on in rounds 5 to 15)

${fresh3.length} documents in \`test/fixtures/distill-corpus-fresh3/\` (sources and licences in its \`SOURCES.md\`), three per
kind, from this machine's npm packages, Debian documentation and man pages, none of them in another set. Their facts were
written from the documents (read with \`cat\`, \`man\` and an HTML-to-text dump, not with the distiller) and committed
(commit a71dc1b) before the distiller first ran on them. **Measured once, with round 4's final code** (the answer leads with
the document's opening, then what the extractor finds beyond it):

${beforeTable(FRESH3_ONCE)}

The answer keeps about as much as plain truncation at the same length (89 against 87 facts): ahead on READMEs, man
pages and reference pages, level on licences, behind on HTML pages (11 against 13) and changelogs (17 against 18).
**The issue's goals are not met**: 71.8% of the facts, not 90%, and a median saving of 78.4%, below 80%: half of
these documents have under 1,000 text tokens, where the budget's 300-token floor is more than a fifth of the text,
and two licences are shorter than that floor (a negative saving).

Rounds 5 to 15 then tuned on it, with the other fresh sets. With the current code (in-sample):

${summaryTable(fresh3)}

${documentTable(fresh3)}

## Fresh set 2 (round 3's unseen set, looked at in rounds 4 to 15)

${fresh2.length} documents in \`test/fixtures/distill-corpus-fresh2/\` (sources and licences in its \`SOURCES.md\`), four per
kind (README, HTML page, changelog, licence, man page) and two reference pages, from this machine's npm packages,
Debian documentation, licences and man pages, none of them in another set. Their facts were written from the
documents (read with \`cat\`, \`man\` and an HTML-to-text dump, not with the distiller) and committed before the
distiller first ran on them. **Measured once, with round 3's final code** (commit 37df0d0; its
\`docs/distill-savings.md\` lists each document):

${beforeTable(FRESH2_ONCE)}

Plain truncation keeps as much: the answer is level with it overall (102 against 101 facts), ahead on READMEs and
reference pages, level on HTML pages and licences, behind on changelogs and man pages. The short licences (BSD,
Unlicense: under 300 tokens) cost more distilled than raw, since the budget never goes below 300 tokens.

After that measurement one bug seen in its losses was fixed: a changelog entry's code span \`router.listRoutes()\`
lost its \`()\` (a rule meant for empty link residue). **From here on the set is no longer unseen**; rounds 5 to 15 tuned on it. Now:

${summaryTable(fresh2)}

${documentTable(fresh2)}

## Fresh set (round 2's unseen set, looked at in rounds 3 to 15)

${fresh.length} documents in \`test/fixtures/distill-corpus-fresh/\`. Clean when round 2 measured it; round 3 looked at
its losses and fixed the general failure classes behind them (changelog entries, Texinfo pages, option lists in
man pages, the budget), so the figures below are partly in-sample:

${summaryTable(fresh)}

As measured clean at the end of round 2:

${beforeTable(FRESH_ROUND_2)}

${documentTable(fresh)}

## Test set

${test.length} documents in \`test/fixtures/distill-corpus-test/\` (sources and licences in its \`SOURCES.md\`),
chosen from this machine's npm packages, Debian documentation, licences and man pages; their facts were
written and committed before the distiller was first run on them (commit 1578f95).

${summaryTable(test)}

**Not a clean held-out figure.** The heuristics were first developed on the tuning set only; measured then,
the test set kept ${FIRST_TEST_RUN.kept}/${FIRST_TEST_RUN.facts} facts (${percent((100 * FIRST_TEST_RUN.kept) / FIRST_TEST_RUN.facts)}), truncation ${FIRST_TEST_RUN.truncationKept}/${FIRST_TEST_RUN.facts}, at a ${FIRST_TEST_RUN.budget} budget
(commit a1fa1ab). After that the heuristics were changed again while looking at which test-set facts were
lost (round 1, commits 156e386 to 252ab6b: ${share(ROUND_2_START.test.kept, ROUND_2_START.test.facts)}, truncation ${share(ROUND_2_START.test.truncationKept, ROUND_2_START.test.facts)}; round 2: the lead without a full stop,
settings in code blocks, typed parameters, quoted terms, authors, exit statuses, the budget rule; round 3: changelog
entries, numbered section titles, Texinfo and Asciidoctor definitions, rendered man pages' inline options, the
answer filling its budget, the short-document share). Those
changes are general, not per document, but the figures above are partly in-sample. Before issue 24 (7% budget,
sentence ranking only) the same test set kept ${BEFORE_ISSUE_24.kept}/${BEFORE_ISSUE_24.facts} (${percent((100 * BEFORE_ISSUE_24.kept) / BEFORE_ISSUE_24.facts)}).

### By detail

The same test set at each \`detail\` (\`normal\` is the default, above; each detail's share grows for short documents
by the same rule):

${detailTable(details.test)}

${documentTable(test)}

## Hold-out set

${holdout.length} documents in \`test/fixtures/distill-corpus-holdout/\` (two per kind), added once the test set had
been looked at: chosen, and their facts written and committed (commit 0ddf8d4), after round 1's heuristics were
frozen. Measured once then: ${share(ROUND_2_START.holdout.kept, ROUND_2_START.holdout.facts)}, truncation ${share(ROUND_2_START.holdout.truncationKept, ROUND_2_START.holdout.facts)}. Round 2 looked at its losses (the
README lead, settings in code, quoted terms, exit statuses), and round 3 looked at its figures again, so the figures below
are partly in-sample.

${summaryTable(holdout)}

${documentTable(holdout)}

## Tuning set

${tuning.length} documents in \`test/fixtures/distill-corpus/\`: the heuristics were developed on these, so
their figures are in-sample.

${summaryTable(tuning)}

${documentTable(tuning)}
`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const sets = await measureAll();
  const report = savingsReport(sets, await measureDetails());
  if (!process.argv.includes('--dry-run')) writeFileSync(fileURLToPath(new URL('../docs/distill-savings.md', import.meta.url)), report);
  console.log(report);
  console.log(`times (ms): ${Object.values(sets).flat().map((m) => `${m.file} ${m.milliseconds}`).join(', ')}`);
}
