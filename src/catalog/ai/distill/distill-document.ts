// Distillation: read the document, rank its sentences and facts, then fill a token budget
// proportional to the document's length with the best of each, measured with a real tokenizer.
import { ToolError } from '../../tool.ts';
import { detectFormat } from './detect-format.ts';
import { plainText, squash, type DocumentFormat, type ReadDocument } from './document.ts';
import { fitBudget } from './fit-budget.ts';
import { clip, outlineOf } from './outline.ts';
import { rankFacts } from './rank-facts.ts';
import { rankSentences, sentenceCandidates } from './rank-sentences.ts';
import { readHtml } from './read-html.ts';
import { readMarkdown } from './read-markdown.ts';
import { readText } from './read-text.ts';
import { contentWords } from './sentences.ts';
import { TOKENIZER, tokenCounter } from './token-count.ts';

/** Output budget: this share of the document's text tokens, within the bounds below. */
export const OUTPUT_SHARE = 0.07;
export const MIN_OUTPUT_TOKENS = 120;
export const MAX_OUTPUT_TOKENS = 1500;

export interface DistilledContent {
  title: string;
  url?: string;
  format: DocumentFormat;
  summary: string;
  keyPoints: string[];
  /** Headings, "#" per level as in Markdown. */
  outline: string[];
  entities: string[];
  keywords: string[];
  numbers: string[];
  dates: string[];
}

export interface Distillation extends DistilledContent {
  tokens: {
    tokenizer: string;
    /** Tokens of `content` as sent. */
    input: number;
    /** Tokens of the document's readable text (markup removed). */
    text: number;
    /** Tokens of this answer's JSON without `tokens`. */
    output: number;
    /** output / input */
    ratio: number;
    saved: number;
    savedPercent: number;
  };
}

const MAX_TITLE_CHARACTERS = 150;
const SENTENCES_RANKED = 60;

function read(content: string): ReadDocument {
  const format = detectFormat(content);
  return format === 'html' ? readHtml(content) : format === 'markdown' ? readMarkdown(content) : readText(content);
}

function titleFromUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  const { hostname, pathname } = new URL(url);
  const last = decodeURIComponent(pathname.split('/').filter(Boolean).at(-1) ?? '').replace(/\.[a-z0-9]+$/i, '').replace(/[-_]+/g, ' ').trim();
  return last || hostname;
}

/** The document's own title, else one from the URL, else its first sentence. */
function titleOf(document: ReadDocument, url: string | undefined, firstSentence: string | undefined): string {
  return clip(squash(document.title ?? '') || titleFromUrl(url) || clip(firstSentence ?? 'Untitled', 100), MAX_TITLE_CHARACTERS);
}

/** For texts without a sentence long enough to rank: the first block that is not the title, clipped. */
function fallbackSummary(document: ReadDocument, title: string): string {
  const block = document.blocks.find((b) => b.kind !== 'heading' && b.kind !== 'code' && squash(b.text) !== title);
  return block ? clip(squash(block.text), 300) : '';
}

export async function distill(content: string, url: string | undefined, signal?: AbortSignal): Promise<Distillation> {
  const countTokens = await tokenCounter();
  const document = read(content);
  signal?.throwIfAborted();
  if (!document.blocks.some((block) => /[\p{L}\p{N}]/u.test(block.text))) {
    throw new ToolError(422, 'no_text_found', `no readable text was found in the ${document.format === 'html' ? 'HTML' : document.format} document`);
  }

  const candidates = sentenceCandidates(document.blocks);
  const title = titleOf(document, url, candidates[0]?.text);
  const facts = rankFacts(document, title);
  signal?.throwIfAborted();

  // Sentences naming the title's words and the main facts rank higher.
  const factWords = new Set([...contentWords(title), ...facts.entities.slice(0, 20).flatMap((entity) => contentWords(entity)), ...facts.keywords.slice(0, 10).map((k) => k.toLowerCase())]);
  const titleLower = title.toLowerCase();
  const ranked = rankSentences(candidates.filter((candidate) => squash(candidate.text).toLowerCase() !== titleLower), factWords, SENTENCES_RANKED);
  signal?.throwIfAborted();

  const inputTokens = countTokens(content);
  const textTokens = countTokens(plainText(document));
  const budget = Math.min(MAX_OUTPUT_TOKENS, Math.max(MIN_OUTPUT_TOKENS, Math.round(OUTPUT_SHARE * textTokens)));

  const base: DistilledContent = {
    title,
    ...(url ? { url } : {}),
    format: document.format,
    summary: '',
    keyPoints: [],
    outline: [],
    entities: [],
    keywords: [],
    numbers: [],
    dates: [],
  };
  const { answer } = fitBudget(base, { sentences: ranked, outline: outlineOf(document, title), ...facts }, budget, countTokens);
  if (!answer.summary) answer.summary = fallbackSummary(document, title);
  const output = countTokens(JSON.stringify(answer));
  const saved = inputTokens - output;
  return {
    ...answer,
    tokens: {
      tokenizer: `${TOKENIZER.encoding} (${TOKENIZER.library})`,
      input: inputTokens,
      text: textTokens,
      output,
      ratio: Math.round((output / inputTokens) * 10_000) / 10_000,
      saved,
      savedPercent: Math.round((saved / inputTokens) * 1000) / 10,
    },
  };
}
