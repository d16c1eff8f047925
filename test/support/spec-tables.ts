// The product spec's tables, parsed: the catalogue and every face are checked against them.
// The spec is read from a copy kept in test/fixtures (itself compared with ../shared/spec when present).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

export const specPath = new URL('../fixtures/gateway-spec.md', import.meta.url);
export const sharedSpecPath = new URL('../../../shared/spec/gateway-spec.md', import.meta.url);
export const spec = readFileSync(specPath, 'utf8');

export function tableAfter(heading: string): string[][] {
  const start = spec.indexOf(heading);
  assert.ok(start >= 0, `spec has no "${heading}"`);
  const lines = spec.slice(start).split('\n');
  const first = lines.findIndex((l) => l.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.slice(1, -1).split('|').map((c) => c.trim()));
  }
  return rows;
}

export interface SpecParam {
  name: string;
  required: boolean;
  default?: string;
  range?: [number, number];
}

/** "q: string, required; limit: integer, default 5, range 1-10" and the MCP table's "query (req); limit number, default 5, 1-10". */
export function parseParams(cell: string, withLocation: boolean): SpecParam[] {
  const text = withLocation ? cell.replace(/^(query|body)\s+(\(optional\)\s+)?/, '') : cell;
  if (/^none/.test(text)) return [];
  const allRequired = /all req(uired)?\)?$/.test(text);
  const segments = splitTopLevel(text, ';').flatMap((s) => s.split(/,\s*(?=\w+:)/));
  const params: SpecParam[] = [];
  for (const segment of segments) {
    const names = /^(\w+(?:,\s*\w+)+)\s*\(all req\)/.exec(segment)?.[1]?.split(/,\s*/) ?? [/^(\w+)/.exec(segment)?.[1]];
    if (/^(also|all)\b/.test(segment)) continue;
    for (const name of names) {
      if (!name) continue;
      const defaultValue = /default ([^\s)]+?)(?:,\s|[\s)]|$)/.exec(segment)?.[1];
      const range = /(\d+)-(\d+)/.exec(segment);
      params.push({
        name,
        required: allRequired || /\(req|required/.test(segment),
        ...(defaultValue ? { default: defaultValue } : {}),
        ...(range ? { range: [Number(range[1]), Number(range[2])] as [number, number] } : {}),
      });
    }
  }
  return params;
}

function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(') depth += 1;
    if (ch === ')') depth -= 1;
    if (ch === separator && depth === 0) {
      parts.push(current.trim());
      current = '';
    } else current += ch;
  }
  if (current.trim()) parts.push(current.trim());
  return parts;
}


/**
 * Inputs the spec marks required that the catalogue knowingly makes optional, keyed by
 * "tool.input", each with the input that can stand in for it, and why.
 */
export const optionalDespiteSpec: Readonly<Record<string, { alternative: string; why: string }>> = {
  'distill_document.content': { alternative: 'url', why: 'issue 9: distill_document fetches the page when only url is given' },
};

/**
 * Optional inputs the catalogue adds beyond the spec's table, keyed by "tool.input", with why. The
 * spec's calls keep working unchanged: each has a default.
 */
export const optionalBeyondSpec: Readonly<Record<string, string>> = {
  'distill_document.detail': 'issue 24: the caller chooses how much of the document the answer keeps (brief, normal, full)',
  'distill_document.maxTokens': 'issue 24: or caps the answer at a number of tokens',
};
