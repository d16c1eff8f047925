// Sections a document carries that are not about its subject: the licence a GNU manual appends
// (the GFDL, with its own definitions, limits and dates) and an index of its terms. Outside a licence
// their terms, numbers and sentences are not the document's facts.
import { squash, type Block } from './document.ts';

const APPENDIX = /\b(?:GNU (?:Free Documentation|(?:Lesser |Library )?General Public) Licen[cs]e|Copying This Manual)\b|^(?:(?:Appendix \w+ )?(?:Concept |Function |Variable |Program |General )?Index|Indices)$/i;

/** The blocks without appended licences and indexes: each such section runs to the next heading of its level or higher. */
export function withoutAppendices(blocks: readonly Block[]): Block[] {
  let skippedLevel: number | undefined;
  return blocks.filter((block) => {
    if (block.kind === 'heading') {
      if (skippedLevel !== undefined && block.level <= skippedLevel) skippedLevel = undefined;
      if (skippedLevel === undefined && APPENDIX.test(squash(block.text))) skippedLevel = block.level;
    }
    return skippedLevel === undefined;
  });
}
