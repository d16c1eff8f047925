// The units a learned scorer weighs (round 15): each sentence of a paragraph or item, each heading and table row, and
// each of a code block's first lines, with the features that describe it: what block it is in, where it stands, what
// its section is called, and what it holds (a version, a date, a call, an option, a licence's name…). Features are named
// so that a weight file (unit-weights.json) can say what each one is worth; a name per document kind lets a block's
// place count differently in a manual and in a README.
import type { Block } from './document.ts';
import type { DocumentKind } from './document-kind.ts';
import { splitSentences } from './sentences.ts';

export interface ScoringUnit {
  text: string;
  /** Order in the document. */
  order: number;
  /** Index of its block in the document's blocks. */
  block: number;
  features: ReadonlyMap<string, number>;
}

/** Lines of one code block that are units: a block's opening lines say what it shows. */
const CODE_LINES = 12;

/** Section names whose content a reader looks for (or skips): the heading's word becomes a feature. */
const SECTION =
  /\b(usage|example|examples|install|installation|getting started|quick ?start|synopsis|description|options?|api|licen[cs]e|copyright|authors?|changes|notes|bugs|see also|contribut\w*|tests?|benchmarks?|faq|features|requirements?|configuration|commands?|environment|exit status|files|methods?|events?|class|returns?|parameters?|arguments?|overview|introduction|security|support|history|deprecated|caveats|limitations|known issues)\b/gi;

const DATE = /\b(?:19|20)\d\d[-/]\d\d|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* \d{1,2},? (?:19|20)\d\d|\d{1,2} (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* (?:19|20)\d\d/i;
const MEASURE = /\d+\s*(?:ms|s|seconds?|minutes?|hours?|days?|bytes?|kb|mb|gb|%|lines?|characters?|times|x)\b/i;
const SHELL = /^(?:\$\s*)?(?:npm|npx|yarn|pnpm|git|sudo|apt|make|\.\/|cd|node|python|pip|cargo|go)\b/;
const LICENCE_NAME = /\b(?:GPL|LGPL|MIT|BSD|Apache|MPL|ISC|CC0|Artistic|GFDL)\b/;
const RULE = /\b(?:requires?|required|must|fails?|never|always|not supported|does not|cannot|only|default|defaults to|deprecated|warning|important|instead|limit|maximum|minimum)\b/i;
const LICENCE_TERM = /\b(?:you may|may not|provided that|permission|warranty|liab(?:le|ility)|any later version)\b/i;
const CHROME = /\bthank|\bsponsor|\bbadge|\bstar\b|\bdonat/i;

/** The parts of a block that are units. */
function partsOf(block: Block): string[] {
  if (block.kind === 'code') return block.text.split('\n').map((line) => line.trim()).filter(Boolean).slice(0, CODE_LINES);
  if (block.kind === 'heading' || block.kind === 'row') return [block.text.trim()];
  return splitSentences(block.text);
}

const words = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];

export function scoringUnits(blocks: readonly Block[], title: string, codeTerms: readonly string[], kind: DocumentKind): ScoringUnit[] {
  const units: ScoringUnit[] = [];
  const titleWords = new Set(words(title));
  const terms = [...new Set(codeTerms.map((term) => term.toLowerCase()))].filter((term) => term.length > 2);
  let heading = '';
  let sections = 0;
  let inSection = 0;
  blocks.forEach((block, at) => {
    if (block.kind === 'heading') [heading, sections, inSection] = [block.text.toLowerCase(), sections + 1, 0];
    const sectionNames = [...heading.matchAll(SECTION)].map((match) => match[1]!.replace(/s$/, ''));
    partsOf(block).forEach((text, part) => {
      const features = new Map<string, number>();
      const set = (name: string, value: number | boolean = 1) => {
        const number = Number(value);
        if (number) features.set(name, (features.get(name) ?? 0) + number);
      };
      /** A feature of the block's kind or place, also named per document kind. */
      const placed = (name: string, value: number | boolean = 1) => (set(name, value), set(`${kind}|${name}`, value));
      const relative = at / Math.max(1, blocks.length);
      const count = text.split(/\s+/).filter(Boolean).length;
      const lower = text.toLowerCase();
      set('bias');
      set(`k:${kind}`);
      placed(`b:${block.kind}`);
      placed(`b:${block.kind}:part0`, part === 0);
      placed(`b:${block.kind}:firstInSec`, inSection === 0);
      for (const name of sectionNames) placed(`h:${name}`), placed(`h:${name}:${block.kind}`);
      set('rel', relative);
      set('rel2', relative * relative);
      set('logi', Math.log1p(at) / 5);
      set('early', at < 5);
      set('partlog', Math.log1p(part) / 3);
      set('insec', Math.log1p(inSection) / 3);
      set('secno', Math.log1p(sections) / 3);
      set('logw', Math.log1p(count) / 4);
      set('short', count <= 3);
      set('long', count > 40);
      set('digit', /\d/.test(text));
      set('version', /\bv?\d+\.\d+(?:\.\d+)?\b/.test(text));
      set('date', DATE.test(text));
      set('unit', MEASURE.test(text));
      set('url', /https?:\/\/|ftp:\/\//.test(text));
      set('option', /(?:^|\s)--?[a-z][\w-]*/i.test(text));
      set('startsOption', /^--?[a-z]/i.test(text));
      set('call', /[\w$.]+\([^)]*\)/.test(text));
      set('require', /\b(?:require\(|import\s|from\s+['"])/.test(text));
      set('shell', SHELL.test(text));
      set('comment', /^(?:#|\/\/|\/\*|\*)/.test(text));
      set('endsColon', /:$/.test(text));
      set('brace', /^[{}()[\];,]+$/.test(text));
      set('copyright', /\bcopyright\b|\(c\)|©/i.test(text));
      set('licenceName', LICENCE_NAME.test(text));
      set('informative', RULE.test(text));
      set('licenceTerms', LICENCE_TERM.test(text));
      set('titlew', Math.min(3, words(text).filter((word) => titleWords.has(word)).length) / 3);
      set('codeTerm', Math.min(3, terms.filter((term) => lower.includes(term)).length) / 3);
      set('capStart', /^[A-Z]/.test(text));
      set('endsStop', /[.!?]$/.test(text));
      set('punctShare', (text.match(/[^\w\s]/g) ?? []).length / Math.max(1, text.length));
      set('thanks', CHROME.test(text));
      units.push({ text, order: units.length, block: at, features });
      if (block.kind !== 'heading') inSection += 1;
    });
  });
  return units;
}
