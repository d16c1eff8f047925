// SPF (RFC 7208): which TXT record is the policy, its terms, the qualifier of `all`, and how many
// DNS lookups evaluating it costs against the limit of 10 (section 4.6.4), following `include`
// and `redirect` through the records they name.

export type SpfQualifier = '+' | '-' | '~' | '?';

export interface SpfTerm {
  kind: 'mechanism' | 'modifier';
  /** "+" unless the record says otherwise (mechanisms only). */
  qualifier: SpfQualifier | null;
  name: string;
  value: string | null;
}

export interface SpfRecord {
  text: string;
  terms: SpfTerm[];
  /** The qualifier of the `all` mechanism; null when the record has none. */
  all: SpfQualifier | null;
  redirect: string | null;
  /** Terms of this record alone that cost a DNS lookup (include, a, mx, ptr, exists, redirect). */
  lookupTerms: number;
  /** Syntax problems that make the record a permerror. */
  errors: string[];
}

const MECHANISMS = new Set(['all', 'include', 'a', 'mx', 'ptr', 'ip4', 'ip6', 'exists']);
const LOOKUP_MECHANISMS = new Set(['include', 'a', 'mx', 'ptr', 'exists']);
export const SPF_LOOKUP_LIMIT = 10;

/** The SPF records among a name's TXT texts (section 4.5: "v=spf1" then a space or the end). */
export function spfRecordsOf(texts: readonly string[]): string[] {
  return texts.filter((text) => /^v=spf1( |$)/i.test(text));
}

export function parseSpf(text: string): SpfRecord {
  const terms: SpfTerm[] = [];
  const errors: string[] = [];
  for (const word of text.trim().split(/ +/).slice(1)) {
    const term = termOf(word);
    if (typeof term === 'string') errors.push(term);
    else terms.push(term);
  }
  const redirects = terms.filter((term) => term.kind === 'modifier' && term.name === 'redirect');
  if (redirects.length > 1) errors.push('more than one redirect modifier');
  const all = terms.find((term) => term.kind === 'mechanism' && term.name === 'all');
  const redirect = redirects[0]?.value ?? null;
  const lookupTerms =
    terms.filter((term) => term.kind === 'mechanism' && LOOKUP_MECHANISMS.has(term.name)).length +
    // A redirect is not followed when the record has `all` (section 6.1).
    (redirect !== null && !all ? 1 : 0);
  return { text, terms, all: all?.qualifier ?? null, redirect: all ? null : redirect, lookupTerms, errors };
}

function termOf(word: string): SpfTerm | string {
  const modifier = /^([a-z][a-z0-9_.-]*)=(.*)$/i.exec(word);
  if (modifier) return { kind: 'modifier', qualifier: null, name: modifier[1]!.toLowerCase(), value: modifier[2]! };
  const mechanism = /^([+\-~?]?)([a-z][a-z0-9_.-]*)(?:[:/](.*))?$/i.exec(word);
  if (!mechanism) return `"${word}" is not an SPF term`;
  const name = mechanism[2]!.toLowerCase();
  if (!MECHANISMS.has(name)) return `"${word}" is not an SPF mechanism`;
  const value = word.includes(':') ? word.slice(word.indexOf(':') + 1) : null;
  if ((name === 'include' || name === 'exists') && !value) return `"${word}" needs a domain`;
  return { kind: 'mechanism', qualifier: (mechanism[1] || '+') as SpfQualifier, name, value };
}

/** How a target's SPF record is looked up: its TXT texts, or why there are none. */
export type SpfTxtLookup = (name: string) => Promise<{ texts: string[] } | { missing: string } | { failed: string }>;

export interface SpfLookupCount {
  /** DNS lookups counted (the record's own terms and those of every record it includes). */
  count: number;
  limit: number;
  exceeded: boolean;
  /** False when some include or redirect target could not be read (a macro, a failed query, the query cap). */
  complete: boolean;
  /** Targets whose records were read, in order. */
  followed: string[];
  problems: string[];
}

/**
 * Counts lookups depth first through include and redirect targets. Stops as soon as the count is
 * past the limit (the verdict is known) and after `maxQueries` target lookups.
 */
export async function countSpfLookups(record: SpfRecord, lookup: SpfTxtLookup, maxQueries = 10): Promise<SpfLookupCount> {
  const state = { count: 0, queries: 0, complete: true, followed: [] as string[], problems: [] as string[], seen: new Set<string>() };
  await visit(record, lookup, maxQueries, state);
  return { count: state.count, limit: SPF_LOOKUP_LIMIT, exceeded: state.count > SPF_LOOKUP_LIMIT, complete: state.complete || state.count > SPF_LOOKUP_LIMIT, followed: state.followed, problems: state.problems };
}

interface CountState {
  count: number;
  queries: number;
  complete: boolean;
  followed: string[];
  problems: string[];
  seen: Set<string>;
}

async function visit(record: SpfRecord, lookup: SpfTxtLookup, maxQueries: number, state: CountState): Promise<void> {
  state.count += record.lookupTerms;
  const targets = [
    ...record.terms.filter((term) => term.kind === 'mechanism' && term.name === 'include').map((term) => term.value!),
    ...(record.redirect ? [record.redirect] : []),
  ];
  for (const target of targets) {
    if (state.count > SPF_LOOKUP_LIMIT) return;
    if (target.includes('%')) {
      state.complete = false;
      state.problems.push(`${target}: a macro, not expanded here`);
      continue;
    }
    const name = target.toLowerCase().replace(/\.$/, '');
    if (state.seen.has(name)) {
      state.problems.push(`${name}: included more than once (a loop, or a repeat)`);
      continue;
    }
    if (state.queries >= maxQueries) {
      state.complete = false;
      state.problems.push(`${name}: not read (at most ${maxQueries} included records are read)`);
      continue;
    }
    state.seen.add(name);
    state.queries += 1;
    const answer = await lookup(name);
    if ('failed' in answer) {
      state.complete = false;
      state.problems.push(`${name}: ${answer.failed}`);
      continue;
    }
    if ('missing' in answer) {
      state.problems.push(`${name}: ${answer.missing} (a permerror when evaluated)`);
      continue;
    }
    const records = spfRecordsOf(answer.texts);
    if (records.length !== 1) {
      state.problems.push(`${name}: ${records.length === 0 ? 'no SPF record' : `${records.length} SPF records`} (a permerror when evaluated)`);
      continue;
    }
    state.followed.push(name);
    await visit(parseSpf(records[0]!), lookup, maxQueries, state);
  }
}
