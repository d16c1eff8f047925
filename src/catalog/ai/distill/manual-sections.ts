// Which of a man page's sections say something about the program: not those that say how to report bugs, who holds
// the copyright or where to read more (round 13: a BUGS section's known limitations do).
import { squash, type Block } from './document.ts';

/** Sections of a man page that say how to report bugs, who holds the copyright, where to read more. */
const CLOSING_SECTIONS = /^(?:reporting bugs|copyright|see also|colophon|availability|history)$/i;
/** A BUGS section: its known limitations are about the program ("Some platforms don't currently support timeouts beyond the year 2038"). */
const BUGS_SECTION = /^(?:bugs|known bugs)$/i;
/** A paragraph saying where to report bugs ("E-mail bug reports to bug-sed@gnu.org", "Please send bug reports to … https://…"). */
const BUG_REPORTING = /\b(?:report|send|e-?mail|mail|submit|file)\b[^.]*\bbugs?\b|\bbugs? reports?\b|\bbug tracker\b|\bproblems and bugs\b|https?:\/\/|\S@\S/i;

/** The blocks of a man page that are about the program: the closing sections left out, and a BUGS section's reporting lines. */
export function manualContent(blocks: readonly Block[]): Block[] {
  let section: 'content' | 'closing' | 'bugs' = 'content';
  return blocks.filter((block) => {
    if (block.kind === 'heading') {
      const heading = squash(block.text);
      section = CLOSING_SECTIONS.test(heading) ? 'closing' : BUGS_SECTION.test(heading) ? 'bugs' : 'content';
      return section === 'content';
    }
    return section === 'content' || (section === 'bugs' && !BUG_REPORTING.test(block.text));
  });
}
