import { squash, type ReadDocument } from './document.ts';
import type { OutlineEntry } from './fit-budget.ts';

const MAX_OUTLINE_CHARACTERS = 80;

export const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`);

/** An outline entry names a section: long argument lists in a heading become "(…)". */
const entryText = (heading: string) => clip(squash(heading).replace(/\(([^()]{12,})\)/g, '(…)'), MAX_OUTLINE_CHARACTERS);

/** Sections every man page or README has: they say nothing about this one. */
const BOILERPLATE = /^(?:NAME|SYNOPSIS|SEE ALSO|AUTHORS?|COPYRIGHT|REPORTING BUGS|Table of Contents|Contents|Licen[cs]e|Contributors|Sponsors|Backers)$/i;
/** A man page's standard sections (man-pages(7)): in an outline they name no subject of this page, only cost tokens. */
const MAN_SECTIONS = /^(?:DESCRIPTION|OPTIONS|EXAMPLES?|EXIT STATUS|RETURN VALUE|ERRORS|ENVIRONMENT|FILES|NOTES|BUGS|HISTORY|STANDARDS|CONFORMING TO|AVAILABILITY|COLOPHON|DIAGNOSTICS)$/;

/** Headings as "#"-prefixed entries, levels relative to the top one, best (highest level) first. */
export function outlineOf(document: ReadDocument, title: string): OutlineEntry[] {
  const headings = document.blocks.flatMap((block, order) => (block.kind === 'heading' ? [{ level: block.level, text: block.text, order }] : []));
  const top = Math.min(...headings.map((heading) => heading.level));
  return headings
    .filter((heading, i) => !(i === 0 && heading.text === title) && !BOILERPLATE.test(heading.text) && !(document.format !== 'html' && MAN_SECTIONS.test(heading.text.trim())))
    .map((heading) => ({ text: `${'#'.repeat(heading.level - top + 1)} ${entryText(heading.text)}`, rank: heading.level, order: heading.order }))
    .sort((a, b) => a.rank - b.rank || a.order - b.order);
}
