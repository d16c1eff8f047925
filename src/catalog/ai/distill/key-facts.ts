// Facts as facts: the commands to run, the options and terms a reference defines, the limits and
// defaults it states, the versions and dates it gives, each with the sentence it comes from, so a
// reader gets the value and its meaning together. Ranked within each kind, then interleaved so
// that no kind crowds the others out.
import { clauseAround, compactMeaning } from './compact-clause.ts';
import { STATUS_SECTION, type Definition } from './definitions.ts';
import { NUMBERED_TITLE } from './numbered-title.ts';
import { escapeRegExp, squash, type Block } from './document.ts';
import { extractDates, extractNumbers } from './facts.ts';
import { maskUrls } from './mask-urls.ts';
import { splitSentences } from './sentences.ts';

export type FactKind = 'command' | 'option' | 'definition' | 'limit' | 'version' | 'date';

export interface KeyFact {
  fact: string;
  kind: FactKind;
  /** The sentence (or definition, or section) it comes from, clipped. */
  sentence: string;
}

const MAX_SENTENCE_CHARACTERS = 170;
/** Shell commands worth running as written: installs, and the tool invoked in a `$ ` prompt. */
const COMMAND = /^\s*(?:\$\s+)?((?:sudo\s+)?(?:npm|npx|yarn|pnpm|bun|deno|pip3?|pipx|apt(?:-get)?|brew|cargo|go|gem|composer|dnf|yum|docker|make)\s+(?:i|install|add|get|run|exec|build|test|-g)\b[^\n#]{0,80})/;
const PROMPT = /^\s*\$\s+(\S[^\n]{2,80})$/;
/**
 * A shell line without a prompt: a program name, then words, options, paths or shell variables ("valgrind
 * --leak-check=yes myprog arg1", "sessreg -a -l $DISPLAY $USER"; round 11), no code syntax. The program may be named by its path
 * ("inst/bin/valgrind --tool=foobar date", "./configure --prefix=/usr"; round 13).
 */
const SHELL_LINE = /^\s*((?:\.{1,2}\/|\/)?[a-z][\w.+-]*(?:\/[\w.+-]+)*(?:\s+(?:--?[\w][\w=.,:/%+-]*|[\w./<>=:%~+$-]+|'[^']*'|"[^"]*")){1,10})\s*$/;
/** Lines of a code block that may be one invocation shown after "Run it like this:". */
const MAX_SHELL_LINES = 2;

/**
 * The lines of a short code block introduced by a sentence ending in a colon, or standing first under a heading of
 * its own ("### Deploy" over "gcloud functions deploy …"), when each reads as a shell command; a line continued
 * with a backslash is one command.
 */
function introducedCommands(block: Block, previous: Block | undefined): string[] {
  if (block.kind !== 'code' || !previous) return [];
  if (!((previous.kind === 'paragraph' || previous.kind === 'item') && /:\s*$/.test(previous.text)) && previous.kind !== 'heading') return [];
  const lines = block.text.replace(/\\\n/g, ' ').split('\n').map((line) => line.trim()).filter(Boolean);
  if (lines.length === 0 || lines.length > MAX_SHELL_LINES) return [];
  const commands = lines.map((line) => SHELL_LINE.exec(line)?.[1]);
  return commands.every((command): command is string => command !== undefined) ? commands.map(squash) : [];
}
/** Words that make a number a limit or a default worth keeping with its sentence. */
const LIMIT_CUE = /\b(?:default(?:s|ed)?|maximum|minimum|max|min|limit(?:s|ed)?|at most|at least|up to|no more than|more than|less than|exceed(?:s|ing)?|exit status|exit code|exits? with|returns? (?:status|code)|timeout|status of|only)\b/i;
/** A number after these words names a part of the text or a version, not a quantity: "section 6". */
const REFERENCE_BEFORE = /\b(?:sections?|clauses?|articles?|paragraphs?|chapters?|parts?|options?|versions?|step|page|issue|§)\s*$/i;
/** A number after these words numbers a part of a text ("RFC 7231, section 4.3.6"). */
const SECTION_BEFORE = /\b(?:sections?|clauses?|articles?|paragraphs?|chapters?|§)\s*$/i;
/** Cues that make a number a setting a reader must know: a default, a bound, an exit status. */
const STRONG_LIMIT_CUE = /\b(?:default(?:s|ed)?|maximum|minimum|limit(?:s|ed)?|at most|at least|no more than|exit status|exit code|exits? with|timeout)\b/i;
/** A sentence saying what a program returns: "Exit status is 0 if inputs are the same". */
const EXIT_CUE = /\b(?:exit status|exit code|exits? with|returns? (?:status|code))\b/i;
/** A bare number; not a man page's section in a reference to it ("ssh(1)"). */
const BARE_NUMBER = /(?<![\w.,#/-])\d{1,3}(?:,\d{3})+(?![\w,])|(?<![\w.,#/-]|\w\()\d+(?:\.\d+)?(?![\w./])/g;

/** A sentence clipped to show the fact: from its start, or around the fact when that lies far in. */
export function clipAround(sentence: string, fact: string, max = MAX_SENTENCE_CHARACTERS): string {
  const text = squash(sentence);
  if (text.length <= max) return text;
  const at = text.toLowerCase().indexOf(fact.toLowerCase());
  if (at < 0 || at + fact.length < max - 20) return `${text.slice(0, max - 1).trimEnd()}…`;
  const start = Math.max(0, Math.min(at - Math.floor((max - fact.length) / 2), text.length - max + 1));
  return `…${text.slice(start + 1, start + max - 1).trim()}…`;
}

interface Ranked extends KeyFact {
  score: number;
  order: number;
}

function commandsOf(blocks: readonly Block[]): Ranked[] {
  const found: Ranked[] = [];
  const seen = new Set<string>();
  let heading = '';
  blocks.forEach((block, order) => {
    if (block.kind === 'heading') heading = block.text;
    // An install line written as inline code on a line of its own ("`npm i fastq --save`") is a command too.
    const alone = block.kind === 'paragraph' && block.text.split(' ').length <= 10 && COMMAND.exec(block.text)?.[1]?.trim() === block.text.trim();
    if (block.kind !== 'code' && !alone) return;
    for (const line of block.text.split('\n')) {
      const command = squash(COMMAND.exec(line)?.[1] ?? PROMPT.exec(line)?.[1] ?? '');
      if (!command || seen.has(command)) continue;
      seen.add(command);
      const install = /\b(?:install|add|get|-g)\b/.test(command);
      found.push({ fact: command, kind: 'command', sentence: clipAround(heading, command), score: (install ? 2 : 1) - order / blocks.length, order });
    }
    // "Use this command line:" then the command on its own: the invocation the text teaches, with the sentence that says so.
    const previous = blocks[order - 1];
    for (const command of introducedCommands(block, previous)) {
      if (seen.has(command)) continue;
      seen.add(command);
      found.push({ fact: command, kind: 'command', sentence: clipAround(previous!.text, command), score: 1 - order / blocks.length, order });
    }
  });
  return found.sort((a, b) => b.score - a.score || a.order - b.order);
}

/** The names a term is mentioned by: its options ("-a" and "--all" in "-a, --all"), else its first word without arguments. */
function mentionKeys(term: string): string[] {
  if (term.startsWith('-')) return (term.match(OPTION_NAME) ?? []).map((option) => option.toLowerCase());
  const name = term.replace(/\(.*$/, '').split(/[ ,=[]/)[0]!.toLowerCase();
  // A method is also mentioned by its own name: "setRawMode" for "readStream.setRawMode(mode)".
  const method = name.split('.').at(-1)!;
  return method !== name && method.length >= 4 ? [name, method] : [name];
}
/** The option names in a term ("-I replace-str, --replace[=…]"): "-I" and "--replace", not "-str". */
// An optional part written in brackets right after the name ("-histo[:live]", "--color[=WHEN]", DocBook's "--dump[=<desc>]") is part of how it is typed.
const OPTION_NAME = /(?<![\w-])--?[\w?][\w-]*(?:\[[:=]?[\w,|:=<>-]+\])?/g;

/** How a defined term is listed among keywords: an option by its long name ("--null" for "-0, --null"), a function without its arguments. */
export function keywordOf(term: string): string {
  if (term.startsWith('-')) {
    const name = (term.match(OPTION_NAME) ?? [term]).sort((a, b) => b.length - a.length)[0]!;
    // The argument written with it is part of how it is typed: "--context=N", "--lang=CATALOGNAME".
    const argument = new RegExp(`${escapeRegExp(name)}(=[^\\s,]{1,16})(?=\\s|$)`).exec(term)?.[1];
    return argument ? name + argument : name;
  }
  // The signature's arguments and return type are in the fact; the keyword is the name, a few tokens.
  return term.replace(/\((.+)\)(?::.*)?$/, '()');
}

/** Options every program has: they say nothing about this one. */
const UNIVERSAL_OPTIONS = new Set(['--help', '--version', '-h', '-v', '-V', '-?', '--usage']);
/** A term naming only such options ("-h, --help", "--version"). */
export const isUniversalOption = (term: string) => /^-/.test(term) && (term.match(OPTION_NAME) ?? []).every((option) => UNIVERSAL_OPTIONS.has(option));

/** An option every program has: its names all universal, and a long one among them or a meaning about help or the version ("-v" alone may be verbose). */
const isHelpOrVersion = (definition: Definition) => {
  const keys = mentionKeys(definition.term);
  return keys.length > 0 && keys.every((key) => UNIVERSAL_OPTIONS.has(key)) && (keys.some((key) => key.startsWith('--')) || /\b(?:help|version|usage)\b/i.test(definition.meaning));
};

/**
 * How a definition list is ranked: by how often the text mentions each term (a reference's functions), or,
 * for a manual, in the page's order, terms its synopsis or description names first: a man page lists its main
 * options first, while mention counts favour options that others refer to (sort's --month-sort).
 */
export type DefinitionRanking = 'mentions' | 'order';

function definitionFacts(definitions: readonly Definition[], prose: string, ranking: DefinitionRanking = 'mentions'): Ranked[] {
  // One pass over the text counts every option and identifier; each term is then looked up.
  const counts = new Map<string, number>();
  for (const [token] of prose.toLowerCase().matchAll(/(?<![\w-])--?[\w-]+|[\w$]+(?:\.[\w$]+)*/g)) counts.set(token, (counts.get(token) ?? 0) + 1);
  // Options every program has (-h, --help; --version) say nothing about this one: never a fact (round 13).
  return definitions
    .filter((definition) => !isHelpOrVersion(definition))
    .map((definition) => {
      const keys = mentionKeys(definition.term);
      // Each name is counted once in the term itself.
      const mentions = keys.reduce((sum, key) => sum + Math.max(0, (counts.get(key) ?? 0) - 1), 0);
      // A meaning that states a default or a limit with its value says the most.
      const valued = LIMIT_CUE.test(definition.meaning) && /\d|["'‘“`]/.test(definition.meaning);
      // Lists put their main entries first.
      const early = definitions.indexOf(definition) < Math.max(3, definitions.length * 0.2);
      const position = definitions.indexOf(definition) / Math.max(1, definitions.length);
      const byOrder = (mentions > 0 ? 1 : 0) + (valued ? 0.3 : 0) - 2 * position;
      const score = ranking === 'order' ? byOrder : Math.log2(1 + mentions) + (valued ? 0.5 : 0) + (early ? 0.5 : 0);
      const kind: FactKind = definition.status ? 'limit' : definition.term.startsWith('-') ? 'option' : 'definition';
      return { fact: definition.term, kind, sentence: definition.status ? definition.meaning : compactMeaning(definition.meaning), score: definition.status ? 20_000 - definition.order : score, order: definition.order };
    })
    .sort((a, b) => b.score - a.score || a.order - b.order);
}

function sentenceFacts(blocks: readonly Block[], skip?: RegExp): { limits: Ranked[]; versions: Ranked[]; dates: Ranked[] } {
  const limits: Ranked[] = [];
  const versions: Ranked[] = [];
  const dates: Ranked[] = [];
  const seen = new Set<string>();
  let order = 0;
  let statusSection = false;
  for (const block of blocks) {
    if (block.kind === 'heading') statusSection = STATUS_SECTION.test(block.text);
    if (block.kind !== 'paragraph' && block.kind !== 'item') continue;
    for (const raw of splitSentences(block.text)) {
      order += 1;
      if (skip?.test(raw)) continue;
      const sentence = maskUrls(raw);
      const { dates: found, masked } = extractDates(sentence);
      for (const date of found) {
        if (seen.has(`date:${date.text}`)) continue;
        seen.add(`date:${date.text}`);
        dates.push({ fact: date.text, kind: 'date', sentence: clauseAround(raw, date.text), score: -order, order });
      }
      const numbers = extractNumbers(masked);
      // API history lines ("Added in: v0.1.99") date an entry; they are not the document's version.
      // A numbered section title in a table of contents ("1.2.1 Time Resources") gives no version either.
      const history = /^(?:Added in|Deprecated since|Changed in|Removed in)\b/i.test(raw) || NUMBERED_TITLE.test(raw);
      for (const number of history ? [] : numbers) {
        if (!/^(?:v\d|[Vv]ersion\s|\d+\.\d+\.\d)/.test(number.text) || seen.has(`version:${number.text}`)) continue;
        // "section 4.3.6" of an RFC is a part of a text, not a version.
        if (SECTION_BEFORE.test(masked.slice(0, Math.max(0, masked.indexOf(number.text))))) continue;
        seen.add(`version:${number.text}`);
        versions.push({ fact: number.text, kind: 'version', sentence: clauseAround(raw, number.text), score: -order, order });
      }
      if (!LIMIT_CUE.test(sentence) && !statusSection) continue;
      const valued =
        numbers.find((number) => !/^(?:v\d|[Vv]ersion\s)/.test(number.text))?.text ??
        [...masked.matchAll(BARE_NUMBER)].find((match) => !/^(?:19|20)\d\d$/.test(match[0]) && !REFERENCE_BEFORE.test(masked.slice(Math.max(0, match.index - 12), match.index)))?.[0];
      // One sentence per value: "minimum 2" said twice is one fact.
      if (!valued || seen.has(`limit:${squash(raw)}`) || seen.has(`limit-value:${valued}`)) continue;
      seen.add(`limit:${squash(raw)}`);
      seen.add(`limit-value:${valued}`);
      // What a program returns is asked for more than any one default.
      const priority = statusSection ? 20_000 : EXIT_CUE.test(sentence) ? 15_000 : STRONG_LIMIT_CUE.test(sentence) ? 10_000 : 0;
      limits.push({ fact: valued, kind: 'limit', sentence: clauseAround(raw, valued), score: priority - order, order });
    }
  }
  const first = (ranked: Ranked[]) => ranked.sort((a, b) => b.score - a.score);
  return { limits: first(limits), versions: first(versions), dates: first(dates) };
}

/**
 * Commands a document may give as facts (round 14: five, not three; a guide or man page shows one invocation per task,
 * `gdbus wait --session org.bar.SomeName` the fourth of gdbus's examples). They still compete for the budget by coverage.
 */
const MAX_COMMANDS = 5;

/** More facts than any budget can hold. */
const MAX_FACTS = 400;

/** How many of each kind one round of the interleaving takes, by document kind. */
export type FactMix = Partial<Record<FactKind, number>>;
const DEFAULT_MIX: FactMix = { command: 1, option: 2, definition: 2, limit: 1, version: 1, date: 1 };

/** Exit statuses listed one by one ("0 — if it succeeds", "1 — …") make one fact: the whole table in one line. */
function statusTable(statuses: readonly Ranked[]): Ranked[] {
  if (statuses.length < 2) return [...statuses];
  const table = statuses.map((status) => `${status.fact}: ${status.sentence.replace(/[.;]$/, '')}`).join('; ');
  return [{ fact: 'exit status', kind: 'limit', sentence: table.length <= 200 ? table : `${table.slice(0, 199).trimEnd()}…`, score: Infinity, order: statuses[0]!.order }];
}

/**
 * `skip` tells sentences that are not the document's own content (licence notices in a manual)
 * and whose numbers and versions are not its facts.
 */
export function keyFactsOf(blocks: readonly Block[], definitions: readonly Definition[], prose: string, mix: FactMix = DEFAULT_MIX, skip?: RegExp, ranking?: DefinitionRanking): KeyFact[] {
  const { limits, versions, dates } = sentenceFacts(blocks, skip);
  const definitionRanked = definitionFacts(definitions, prose, ranking);
  // In this order within each round: commands, then limits (exit statuses, defaults), then the definitions.
  const pools: Record<FactKind, Ranked[]> = {
    command: commandsOf(blocks).slice(0, MAX_COMMANDS),
    limit: [...statusTable(definitionRanked.filter((fact) => fact.kind === 'limit').sort((a, b) => a.order - b.order)), ...limits].sort((a, b) => b.score - a.score),
    option: definitionRanked.filter((fact) => fact.kind === 'option'),
    definition: definitionRanked.filter((fact) => fact.kind === 'definition'),
    version: versions.slice(0, 4),
    date: dates.slice(0, 4),
  };
  const kinds = (Object.keys(pools) as FactKind[]).filter((kind) => (mix[kind] ?? 0) > 0);
  const taken: KeyFact[] = [];
  const seen = new Set<string>();
  // A value a definition already states with its term ("-C NUM — output NUM (default 3) lines") is not given again as a limit.
  const defined = definitionRanked.map((fact) => squash(fact.sentence));
  pools.limit = pools.limit.filter((fact) => fact.score === Infinity || !defined.some((sentence) => sentence.length > 0 && fact.sentence.includes(sentence)));
  while (kinds.some((kind) => pools[kind].length > 0) && taken.length < MAX_FACTS) {
    for (const kind of kinds) {
      for (let n = 0; n < (mix[kind] ?? 0); n += 1) {
        const next = pools[kind].shift();
        if (!next) break;
        const key = `${next.fact}\u0000${next.sentence}`;
        if (seen.has(key)) continue;
        seen.add(key);
        taken.push({ fact: next.fact, kind: next.kind, sentence: next.sentence });
      }
    }
  }
  return taken;
}

/** Sections naming who wrote the thing: a man page's AUTHOR, a README's "Authors" or "Credits". */
const AUTHORS_SECTION = /^(?:authors?|written by|credits|maintainers?)$/i;

/** Who wrote it, from its authors section: the first sentence there, names first ("Julian Seward, jseward@acm.org."). */
export function authorsOf(blocks: readonly Block[]): KeyFact | undefined {
  const at = blocks.findIndex((block) => block.kind === 'heading' && AUTHORS_SECTION.test(squash(block.text)));
  const under = at < 0 ? undefined : blocks.slice(at + 1, at + 4).find((block) => block.kind === 'heading' || block.kind === 'paragraph' || block.kind === 'item');
  if (!under || under.kind === 'heading') return undefined;
  const sentence = splitSentences(squash(maskUrls(under.text)))[0] ?? '';
  return /\p{Lu}\p{Ll}+/u.test(sentence) ? { fact: 'author', kind: 'definition', sentence: clipAround(sentence, '', 120) } : undefined;
}
