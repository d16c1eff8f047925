// troff -> blocks, for man pages sent as their source (man(7) macros, and the common mdoc(7) ones):
// sections and subsections become headings, .TP/.IP terms become items "term — meaning", .nf/.EX
// regions code, and font, size and character escapes are reduced to the characters a reader sees.
import { squash, type Block, type ReadDocument } from './document.ts';

/** Named characters of groff_char(7) that man pages actually use. */
const CHARACTERS: Record<string, string> = {
  em: '—', en: '–', hy: '-', mi: '-', bu: '•', aq: "'", dq: '"', lq: '“', rq: '”', oq: '‘', cq: '’', co: '©', rg: '®', tm: '™',
  la: '⟨', ra: '⟩', '<=': '≤', '>=': '≥', mu: '×', de: '°', ti: '~', ha: '^', rs: '\\', sl: '/', ba: '|', dg: '†', ga: '`', aa: '´', pl: '+', eq: '=',
};

/** Escapes in running text, reduced to what a reader sees; `strings` are those defined with .ds. */
export function troffInline(text: string, strings: ReadonlyMap<string, string> = new Map()): string {
  return text
    .replace(/\\".*$/, '') // comment
    .replace(/\\\*(?:\((..)|\[([^\]]*)\]|(.))/g, (_, two?: string, long?: string, one?: string) => strings.get(two ?? long ?? one ?? '') ?? '')
    .replace(/\\f(?:\[[^\]]*\]|\(..|.)/g, '') // font changes: \fB \fI \fR \fP \f(CW \f[B]
    .replace(/\\s[+-]?(?:\d|\(\d\d|\[\d+\])/g, '') // size changes
    .replace(/\\\(([^\s]{2})/g, (_, name: string) => CHARACTERS[name] ?? '')
    .replace(/\\\[([^\]]+)\]/g, (_, name: string) => CHARACTERS[name] ?? '')
    .replace(/\\n(?:\(..|\[[^\]]*\]|.)/g, '') // number registers
    // Motions, widths, lines and device controls (\h'-04', \v'..', \w'..', \l'..', \D'..', \X'..') draw nothing a reader reads.
    .replace(/\\[hvwlLDXxSHbN]'[^']*'/g, '')
    .replace(/\\[oZ]'([^']*)'/g, '$1')
    // Colours (\m[blue] ... \m[]), half-line motions (\u[1]\d for a reference mark) and marks are layout, not text.
    .replace(/\\[mMk](?:\[[^\]]*\]|\(..|.)/g, '')
    .replace(/\\[udz]/g, '')
    .replace(/\\[&|^%,/:)c]/g, '')
    .replace(/\\[ ~0]/g, ' ')
    .replace(/\\-/g, '-')
    .replace(/\\e/g, '\\')
    .replace(/\\(.)/g, '$1');
}

/** Arguments of a request line, honouring "double quotes". */
function argumentsOf(rest: string): string[] {
  return [...rest.matchAll(/"((?:[^"]|"")*)"|(\S+)/g)].map((match) => (match[1] !== undefined ? match[1].replace(/""/g, '"') : match[2]!));
}

/** Text of font requests: .B and .I join their words, .BR and friends alternate fonts without spaces. */
function fontRequestText(name: string, args: string[]): string {
  return name.length === 2 && /^[BIR]{2}$/.test(name) ? args.join('') : args.join(' ');
}

const MDOC_TEXT: Record<string, (args: string[]) => string> = {
  Fl: (args) => args.map((arg, i) => (i === 0 || /^[A-Za-z]/.test(arg) ? `-${arg}` : arg)).join(' ') || '-',
  Ar: (args) => args.join(' ') || 'file ...',
  Nm: (args) => args.join(' '),
  Xr: (args) => (args.length >= 2 ? `${args[0]}(${args[1]})${args.slice(2).join('')}` : args.join(' ')),
  Pa: (args) => args.join(' '),
  Cm: (args) => args.join(' '),
  Ev: (args) => args.join(' '),
  Em: (args) => args.join(' '),
  Sy: (args) => args.join(' '),
  Dq: (args) => `“${args.join(' ')}”`,
  Ql: (args) => `‘${args.join(' ')}’`,
  Op: (args) => `[${args.join(' ')}]`,
  Va: (args) => args.join(' '),
  Li: (args) => args.join(' '),
};

/** A string a conditional request defines: `.ie \n(.g .ds Aq \(aq` (DocBook's apostrophe), `.el .ds Aq '`. */
function conditionalString(rest: string, conditioned: boolean): [string, string] | undefined {
  const body = conditioned ? /^\s*!?(?:'[^']*'[^']*'|\S+)\s+(.*)$/.exec(rest)?.[1] : rest;
  const match = body === undefined ? null : /^\s*[.']\s*ds\s+(\S+)\s?"?(.*)$/.exec(body);
  return match ? [match[1]!, match[2]!] : undefined;
}

/** A line this short (in words) before an indented block is that block's term. */
const MAX_TERM_WORDS = 8;

/**
 * What a macro the page defines itself does to indentation: docutils' rst2man and Sphinx define `.INDENT` (wrapping
 * `.RS`) and `.UNINDENT` (wrapping `.RE`) and indent each option's meaning under its term with them.
 */
function indentMacro(body: readonly string[]): 'RS' | 'RE' | undefined {
  const requests = body.map((line) => /^[.']\s*(RS|RE)\b/.exec(line)?.[1]).filter((name) => name !== undefined);
  return requests.length === 1 ? (requests[0] as 'RS' | 'RE') : undefined;
}

export function readTroff(content: string): ReadDocument {
  const lines = content.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let title: string | undefined;
  let nameSection = false;
  let paragraph: string[] = [];
  let item: { term: string[]; body: string[] } | undefined;
  /** The next text line is a .TP term. */
  let awaitingTerm = false;
  let code: string[] | undefined;
  const strings = new Map<string, string>();
  /** The synopsis is command lines, not prose: kept as code. */
  let synopsis = false;
  /** The page's own source and date, from .TH: "GNU sed 4.9, January 2023". */
  let edition: string | undefined;
  /** Depth of .RS indentation, and the depth at which an indented meaning was opened under its term. */
  let indent = 0;
  let termIndent: number | undefined;
  /** The last .ie tested for nroff (".ie n"), the branch a terminal reader sees: its .el is not read. */
  let nroffBranch = false;
  /** The page's own macros that indent (`.INDENT`) or end an indent (`.UNINDENT`): read as .RS and .RE. */
  const indentMacros = new Map<string, 'RS' | 'RE'>();

  const flush = () => {
    if (item) {
      const term = squash(item.term.join(' '));
      const body = squash(item.body.join(' '));
      const text = term && body ? (term === '•' || term === '-' || term === '*' ? body : `${term} — ${body}`) : term || body;
      if (text) blocks.push({ kind: 'item', text });
      item = undefined;
    }
    if (paragraph.length > 0) {
      const text = squash(paragraph.join(' '));
      if (text && synopsis) blocks.push({ kind: 'code', text });
      else if (text) {
        blocks.push({ kind: 'paragraph', text });
        if (nameSection && !title) title = text;
      }
      paragraph = [];
    }
    awaitingTerm = false;
  };
  const addText = (text: string) => {
    if (code) {
      code.push(text);
      return;
    }
    if (awaitingTerm && item) {
      item.term.push(text);
      awaitingTerm = false;
    } else if (item) item.body.push(text);
    else paragraph.push(text);
  };

  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    const request = /^[.'][ \t]*([A-Za-z][A-Za-z0-9]?|\\")(.*)$/.exec(line);
    // Any other line opening with a control character (".  .", ".\}" closing a conditional block) is no text.
    if (!request && /^[.']/.test(line)) continue;
    if (!request) {
      if (line.trim() === '' && !code) flush();
      else addText(troffInline(line, strings));
      continue;
    }
    const macro = indentMacros.get(/^[.'][ \t]*(\S+)/.exec(line)?.[1] ?? '');
    const [, name = '', rest = ''] = macro ? ['', macro, ''] : request;
    // A conditional's string: the first branch read defines it (groff's, or the terminal's), a later .el does not redefine it.
    const defined = name === 'ie' || name === 'if' || name === 'el' ? conditionalString(rest, name !== 'el') : undefined;
    if (defined && !strings.has(defined[0])) strings.set(defined[0], troffInline(defined[1], strings));
    const args = argumentsOf(troffInline(rest, strings));
    switch (name) {
      case '\\"':
        break;
      case 'ie':
        nroffBranch = /^\s*n\s/.test(rest);
        break;
      case 'el':
        // DocBook writes each list mark twice, ".ie n" (\h'-04' 1.\h'+01') and ".el" (.IP "1."): one is read.
        if (nroffBranch && /\\\{/.test(rest)) for (i += 1; i < lines.length && !/\\\}/.test(lines[i]!); i += 1);
        nroffBranch = false;
        break;
      case 'de': {
        // A macro definition runs to "..": none of it is text. One that only indents, or ends an indent, is remembered.
        const start = i + 1;
        for (i += 1; i < lines.length && !/^\.\.\s*$/.test(lines[i]!); i += 1);
        const defines = /^1?\s+(\S+)/.exec(rest)?.[1];
        const does = indentMacro(lines.slice(start, i));
        if (defines && does) indentMacros.set(defines, does);
        break;
      }
      case 'ds': {
        const [, key = '', value = ''] = /^\s*(\S+)\s?"?(.*)$/.exec(rest) ?? [];
        if (key) strings.set(key, troffInline(value, strings));
        break;
      }
      case 'TH': {
        flush();
        // .TH title section date source manual
        const [, , date = '', source = ''] = args;
        // "local" or an empty source names no edition; a version or a date does.
        edition = /\d/.test(`${source}${date}`) ? [source, date].filter((part) => /\p{L}|\d/u.test(part)).join(', ') : undefined;
        break;
      }
      case 'Dt':
        flush();
        break;
      case 'SH':
      case 'Sh':
      case 'SS':
      case 'Ss': {
        flush();
        let heading = args.join(' ');
        if (!heading && i + 1 < lines.length) heading = troffInline(lines[++i]!);
        heading = squash(heading);
        if (heading) blocks.push({ kind: 'heading', level: name === 'SH' || name === 'Sh' ? 1 : 2, text: heading });
        nameSection = /^NAME$/i.test(heading);
        synopsis = /^SYNOPSIS$/i.test(heading);
        break;
      }
      case 'PP':
      case 'LP':
      case 'P':
      case 'sp':
      case 'Pp':
        flush();
        break;
      case 'TP':
      case 'HP':
        flush();
        item = { term: [], body: [] };
        awaitingTerm = true;
        break;
      case 'IP':
        // help2man writes ".HP", the term, then ".IP" before its meaning: one item.
        if (item && item.term.length > 0 && item.body.length === 0 && !args[0]) {
          awaitingTerm = false;
          break;
        }
      // falls through
      case 'It':
        flush();
        // ".IP term indent" and mdoc's ".It Fl v": the term, then the lines that follow.
        item = { term: [name === 'It' ? mdocLine(rest) : (args[0] ?? '')], body: [] };
        break;
      case 'RS':
        // Asciidoctor and DocBook write a definition list as the term on a line of its own, then its meaning indented: one item.
        indent += 1;
        if (!item && !code && paragraph.length === 1 && paragraph[0]!.split(/\s+/).length <= MAX_TERM_WORDS) {
          item = { term: paragraph, body: [] };
          paragraph = [];
          termIndent = indent;
        }
        break;
      case 'RE':
        if (item && termIndent === indent) {
          flush();
          termIndent = undefined;
        }
        indent = Math.max(0, indent - 1);
        break;
      case 'nf':
      case 'EX':
      case 'Bd':
        flush();
        code = [];
        break;
      case 'fi':
      case 'EE':
      case 'Ed':
        if (code) {
          const text = code.join('\n').replace(/\s+$/, '');
          if (text.trim()) blocks.push({ kind: 'code', text });
          code = undefined;
        }
        break;
      case 'br':
        if (code) code.push('');
        break;
      case 'Nd':
        addText(`- ${args.join(' ')}`);
        break;
      default:
        if (/^[BIR]{1,2}$|^S[MB]$/.test(name)) addText(fontRequestText(name, args));
        else if (MDOC_TEXT[name]) addText(mdocLine(`${name} ${rest}`.trim()));
        // Layout requests (.RS, .RE, .ll, .ad, .na, .in, .ti, .ne, .hy, .nh, .ie, .el, .if, .so, .UR ...) carry no text.
        break;
    }
  }
  flush();
  if (code) blocks.push({ kind: 'code', text: code.join('\n') });
  return { format: 'troff', ...(title ? { title } : {}), ...(edition ? { edition } : {}), blocks, codeTerms: [] };
}

/** An mdoc line such as "Fl o Ar file" or "Nm ssh": each macro's text in turn. */
function mdocLine(line: string): string {
  const words = argumentsOf(troffInline(line));
  const out: string[] = [];
  let macro: string | undefined;
  let args: string[] = [];
  const emit = () => {
    if (macro) out.push(MDOC_TEXT[macro]!(args));
    else out.push(...args);
    args = [];
  };
  for (const word of words) {
    if (MDOC_TEXT[word]) {
      emit();
      macro = word;
    } else args.push(word);
  }
  emit();
  return out.join(' ').replace(/\s+([,.;:)])/g, '$1');
}
