// Reference material: options, settings, functions and error codes, each with its one-line meaning.
// They come as list items "term — meaning" (man pages, <dt>/<dd>), "`term`: meaning" (Markdown
// option lists), table rows "term | meaning", or headings naming an identifier followed by the
// sentence that explains it (API pages: "### path.join([...paths])").
import { squash, type Block } from './document.ts';
import { splitSentences } from './sentences.ts';

export interface Definition {
  term: string;
  meaning: string;
  /** Position of its block. */
  order: number;
  /** An exit status or return code ("0 — if it succeeds", "4 — Failed to parse the stylesheet"). */
  status?: boolean;
  /** Read from a line of code (`max: 20, // pool size`): kept only when nothing else defines the term. */
  setting?: boolean;
}

/** Sections listing what a program returns. */
export const STATUS_SECTION = /\b(?:exit (?:status|codes?|values?)|return (?:values?|codes?|status)|diagnostics)\b/i;

const MAX_TERM_CHARACTERS = 48;
const MAX_MEANING_CHARACTERS = 160;
/** "-c, --create", "--maxdepth VALUE", "origin", "DEBUG_COLORS", "reply.send(data)", "FST_ERR_NOT_FOUND". */
// An argument may be a list ("--show=A,B,C"): a comma followed by a space or a dash starts the next option instead.
const OPTION = String.raw`--?[\w?][\w-]*(?:\[[^\]\s]*\])?(?:[ =]\[?[\w<{[][^\s—:,]*(?:,[^\s—:,-][^\s—:,]*)*)?`;
const TERM = new RegExp(String.raw`^(?:${OPTION}(?:,?\s+${OPTION})*|[.\w$@/:-]+(?:\([^()]{0,40}\))?)$`);
/** An identifier heading: "path.join([...paths])", "Class: tty.ReadStream", "Event: 'resize'", ".send(data)". */
const IDENTIFIER_HEADING = /^(?:(?:Class|Event|Method|Property|Static method):\s*)?['"]?[.\w$]*[._$]\w[\w$.]*(?:\([^()]*(?:\([^()]*\)[^()]*)*\))?['"]?$|^\.\w+\(|^`?--?[\w-]+`?$/;

/** An option heading with its type, as option references write them: "asObject (Boolean)", "transmit (Object)", "level: string". */
const TYPED_HEADING = /^([A-Za-z_$][\w$.-]{1,40})(?:\s+\((?:Boolean|Object|String|Number|Function|Array|Integer|Promise|Map|Set|RegExp|Date|any|boolean|object|string|number|function|array|integer)(?:\s*[|,]\s*\w+)*\)|:\s*(?:boolean|object|string|number|function|array|integer)(?:\s*\|\s*\w+)*)$/;

const DEFAULT_SENTENCE = /\b(?:defaults? (?:to|is)|by default|the default|default:)/i;
const clipMeaning = (text: string) => (text.length <= MAX_MEANING_CHARACTERS ? text : `${text.slice(0, MAX_MEANING_CHARACTERS - 1).trimEnd()}…`);

/** API history: "Added in: v11.13.0, v10.16.0", "Deprecated since: v6.0.0". */
export const HISTORY_LINE = /^(?:Added in|Deprecated since|Changed in|Removed in|Stability)\b/i;

/** The first sentence of a meaning, and the sentence giving its default when another one does. */
function firstSentence(text: string): string {
  const sentences = splitSentences(squash(text));
  const first = sentences[0] ?? '';
  const fallback = DEFAULT_SENTENCE.test(first) ? undefined : sentences.slice(1).find((sentence) => DEFAULT_SENTENCE.test(sentence));
  return fallback ? `${clipMeaning(first)} ${clipMeaning(fallback)}` : clipMeaning(first);
}

/** Usage text in a code block: "  -c/--connections NUM" with its description indented below or beside it. */
function fromUsage(code: string, order: number): Definition[] {
  const found: Definition[] = [];
  const lines = code.split('\n');
  lines.forEach((line, i) => {
    const option = /^(\s*)(--?[\w?][\w/=<>[\]|,. -]*?)(?:\s{2,}(\S.*))?$/.exec(line);
    if (!option || option[2]!.length > MAX_TERM_CHARACTERS) return;
    const indent = option[1]!.length;
    const below: string[] = [];
    for (let j = i + 1; j < lines.length && /^\s*/.exec(lines[j]!)![0].length > indent && lines[j]!.trim() && !/^\s*--?\w/.test(lines[j]!); j += 1) below.push(lines[j]!.trim());
    const meaning = squash([option[3] ?? '', ...below].join(' '));
    if (meaning.split(' ').length >= 2) found.push({ term: option[2]!.trim(), meaning: firstSentence(meaning), order });
  });
  return found;
}

/** A setting in code: `max: 20,`, `"methods": "GET,HEAD",`, `level = 3`. */
const SETTING_LINE = /^\s*["']?([A-Za-z_$][\w$.-]{1,40})["']?\s*[:=]\s*([^\s/#({][^({]{0,60}?)\s*[,;]?$/;
/** Its comment: `// set pool max size to 20`, `# seconds`, after a space and outside quotes. */
const LINE_COMMENT = /\s(?:\/\/|#)\s+(\S.*)$/;
/** A sentence introducing defaults: the settings in the code block under it are the defaults. */
const DEFAULTS_INTRO = /\bdefaults?\b/i;
/** Only the sentence just before the block introduces it: "… instead of the default `msg` key. Use a technique like this:" does not. */
const introducesDefaults = (paragraph: string) => DEFAULTS_INTRO.test(splitSentences(paragraph).at(-1) ?? '');
const KEYWORDS = /^(?:const|let|var|function|return|import|export|if|for|while|case|default)$/;

/**
 * Settings a code block gives with their value: each line explained by its own comment, or every line
 * when the sentence just before the block says they are the defaults ("The default configuration is:").
 */
function fromSettings(code: string, order: number, defaults: boolean): Definition[] {
  const found: Definition[] = [];
  for (const line of code.split('\n')) {
    const comment = LINE_COMMENT.exec(line);
    const before = comment ? line.slice(0, comment.index) : line;
    // A "//" inside a string ('http://…') is not a comment.
    if (comment && ((before.match(/'/g) ?? []).length % 2 === 1 || (before.match(/"/g) ?? []).length % 2 === 1)) continue;
    const setting = SETTING_LINE.exec(before);
    if (!setting || KEYWORDS.test(setting[1]!) || (!comment && !defaults)) continue;
    const said = `${setting[1]}: ${setting[2]!.trim()}`;
    found.push({ term: setting[1]!, meaning: clipMeaning(comment ? `${squash(comment[1]!)} (${said})` : `default ${said}`), order, setting: true });
  }
  return found;
}

/** A typed parameter, as API pages list them: "maxKeys <number> Specifies the maximum number of keys to parse. Default: 1000." */
const TYPED_PARAMETER = /^([A-Za-z_$][\w$.]{0,40}) <[\w|[\].<> ]{1,60}>\s+(\S.{8,})$/;

/**
 * A definition line as Texinfo, Doxygen and Sphinx write them: a category, then the declaration
 * ("Function: void *ffi_closure_alloc (size_t size, void **code) — Allocate a chunk…",
 * "Macro: FFI_CLOSURES — …"). The term is the declared name with its arguments.
 */
const DECLARATION = /^(?:Function|Library Function|Macro|Variable|User Option|Special Form|Command|Constant|Data Type|Type|Typedef|Struct|Method|Instance Variable|Class|Option)\s*:\s+(.{1,200}?)\s+—\s+(.+)$/i;

function fromDeclaration(text: string): { term: string; meaning: string } | undefined {
  const match = DECLARATION.exec(text);
  if (!match) return undefined;
  const declaration = squash(match[1]!);
  // The name is the identifier before the argument list, else the declaration's last identifier.
  const call = /([A-Za-z_$][\w$.:]*)\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)\s*$/.exec(declaration);
  const name = call?.[1] ?? /([A-Za-z_$][\w$.:]*)\W*$/.exec(declaration)?.[1];
  if (!name) return undefined;
  const withArguments = call ? `${name}(${squash(call[2]!)})` : name;
  return { term: withArguments.length <= MAX_TERM_CHARACTERS ? withArguments : `${name}()`, meaning: firstSentence(match[2]!) };
}

/** A term followed by its default in brackets, as DocBook man pages write options: "--threshold=<0--100> [default: 99%]". */
const TERM_DEFAULT = /^(.+?)\s+[[(]default:\s*([^\])]+)[\])]$/i;

function fromItem(text: string): { term: string; meaning: string } | undefined {
  const typed = TYPED_PARAMETER.exec(text);
  if (typed) return { term: typed[1]!, meaning: firstSentence(typed[2]!) };
  const declared = fromDeclaration(text);
  if (declared) return declared;
  // "--context=N [default: 8] — Print N lines…": the default written after the term belongs to its meaning
  // (its colon is not the term's end).
  const annotated = /^(.{1,60}?)\s+—\s+(.+)$/.exec(text);
  const withDefault = annotated ? TERM_DEFAULT.exec(annotated[1]!.trim()) : null;
  if (annotated && withDefault && withDefault[1]!.length <= MAX_TERM_CHARACTERS && TERM.test(withDefault[1]!)) {
    return { term: withDefault[1]!, meaning: `${firstSentence(annotated[2]!)} (default: ${withDefault[2]!})` };
  }
  const match = /^(.{1,60}?)(?:\s+—\s+|:\s+|\s+-\s+|\s+–\s+)(.+)$/.exec(text);
  if (!match) return undefined;
  const term = match[1]!.trim();
  if (term.length > MAX_TERM_CHARACTERS || !TERM.test(term)) return undefined;
  // Plain words before a colon are a sentence ("Note: …"), unless they look like code.
  if (/^[A-Za-z]+$/.test(term) && !/^[a-z]+[A-Z]\w*$|^[A-Z][A-Z0-9_]+$/.test(term) && !/^[a-z]+$/.test(term)) return undefined;
  const meaning = firstSentence(match[2]!);
  // An option may be explained in a word ("-d — Decompress."); anything else needs more.
  return meaning.split(' ').length >= (term.startsWith('-') ? 1 : 2) ? { term, meaning } : undefined;
}

/** Versions and numbers head history tables and value lists ("v0.7.7 | Added in", "-1: to the left"): they define nothing. */
const NOT_A_TERM = /^(?:v?\d+(?:\.\d+)*[\w.-]*|-\d+|\d.*)$/;

export function definitionsOf(blocks: readonly Block[]): Definition[] {
  // Numbers name exit statuses in a section listing them; elsewhere they define nothing.
  let section = '';
  const sectionAt = blocks.map((block) => (block.kind === 'heading' ? (section = block.text) : section));
  const collected = collect(blocks);
  const explained = new Map<string, Definition>();
  for (const definition of collected) if (!definition.setting && !explained.has(definition.term)) explained.set(definition.term, definition);
  const seen = new Set<string>();
  // A setting's value joins the term's own explanation when there is one: "Configures the … header. (default methods: GET,HEAD)".
  for (const definition of collected) {
    const own = definition.setting && explained.get(definition.term);
    if (own && !seen.has(definition.term) && !own.meaning.includes(definition.meaning.replace(/^default /, ''))) own.meaning = `${own.meaning} (${definition.meaning.replace(/ \((.*)\)$/, '; $1')})`;
    if (definition.setting) seen.add(definition.term);
  }
  seen.clear();
  return collected.flatMap((definition) => {
    if (definition.setting) {
      if (explained.has(definition.term) || seen.has(definition.term)) return [];
      seen.add(definition.term);
    }
    if (/^\d{1,3}$/.test(definition.term) && STATUS_SECTION.test(sectionAt[definition.order] ?? '')) return [{ ...definition, status: true }];
    return NOT_A_TERM.test(definition.term) ? [] : [definition];
  });
}

/** A term the text defines in quotes: '"Contributor" means …', 'is called a "work that uses the Library"'. */
const QUOTED_TERM = /["“]([^"”]{3,50})["”]\s+(?:means|shall mean|refers to|is defined as)\b|\b(?:is|are) (?:hereinafter )?called (?:a |an |the )?["“]([^"”]{3,50})["”]/;

/** Terms defined in quotes in running text, each with the sentence defining it. */
function quotedTerms(text: string, order: number): Definition[] {
  const found: Definition[] = [];
  for (const sentence of splitSentences(squash(text))) {
    const match = QUOTED_TERM.exec(sentence);
    const term = match?.[1] ?? match?.[2];
    if (term && /\p{L}{3}/u.test(term)) found.push({ term, meaning: clipMeaning(sentence), order });
  }
  return found;
}

/** A code or constant in capitals with a digit: a warning or error code ("FSTWRN001", "E404") that heads a table row. */
const CODE_NAME = /^[A-Z][A-Z0-9]*\d[A-Z0-9]*$/;

function collect(blocks: readonly Block[]): Definition[] {
  const definitions: Definition[] = [];
  const quoted = new Set<string>();
  blocks.forEach((block, order) => {
    if (block.kind === 'paragraph' || block.kind === 'item') {
      for (const definition of quotedTerms(block.text, order)) {
        if (quoted.has(definition.term.toLowerCase())) continue;
        quoted.add(definition.term.toLowerCase());
        definitions.push(definition);
      }
    }
    if (block.kind === 'code') {
      const before = blocks[order - 1];
      definitions.push(...fromUsage(block.text, order), ...fromSettings(block.text, order, before?.kind === 'paragraph' && introducesDefaults(before.text)));
    } else if (block.kind === 'item') {
      const found = fromItem(block.text);
      if (found) definitions.push({ ...found, order });
    } else if (block.kind === 'row') {
      const [term, ...rest] = block.text.split(' | ');
      if (term && rest.length > 0 && term.length <= MAX_TERM_CHARACTERS && TERM.test(term) && (/[_.(-]|[a-z][A-Z]/.test(term) || CODE_NAME.test(term))) {
        const meaning = firstSentence(rest.find((cell) => cell.split(' ').length >= 3) ?? '');
        if (meaning) definitions.push({ term, meaning, order });
      }
    } else if (block.kind === 'heading' && block.text.length <= 80 && (IDENTIFIER_HEADING.test(block.text) || TYPED_HEADING.test(block.text) || (block.level >= 3 && /^[a-z][\w$]*$/.test(block.text)))) {
      const section = blocks.slice(order + 1, order + 16);
      const end = section.findIndex((b) => b.kind === 'heading');
      // API pages put a history line ("Added in: v0.7.7") and parameter lists before the prose.
      const paragraphs = (end < 0 ? section : section.slice(0, end)).filter((b) => b.kind === 'paragraph' && b.text.split(' ').length >= 4 && !HISTORY_LINE.test(b.text));
      const term = TYPED_HEADING.exec(block.text)?.[1] ?? block.text.replace(/^(?:Class|Event|Method|Property|Static method):\s*/, '');
      if (paragraphs.length > 0) definitions.push({ term, meaning: firstSentence(paragraphs.map((b) => b.text).join(' ')), order });
    }
  });
  return definitions;
}
