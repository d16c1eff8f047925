// A generated section of a Markdown document, between two marker comments: rewriting it leaves the
// rest of the document (hand-written text, other generated sections) as it was.
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface Markers {
  begin: string;
  end: string;
}

/**
 * Replaces what lies between `markers` (markers included) with `section`, which must start with
 * `markers.begin` and end with `markers.end`. Without the markers, `section` goes at the end of the
 * document, after `heading` if one is given; a missing document becomes `newDocument(section)`.
 */
export async function writeSection(file: string, markers: Markers, section: string, newDocument: (section: string) => string, heading?: string): Promise<void> {
  if (!existsSync(file)) {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, newDocument(section));
    return;
  }
  const current = await readFile(file, 'utf8');
  const begin = current.indexOf(markers.begin);
  const end = begin >= 0 ? current.indexOf(markers.end, begin) : -1;
  const next =
    begin >= 0 && end > begin
      ? current.slice(0, begin) + section + current.slice(end + markers.end.length)
      : `${current.trimEnd()}\n\n${heading ? `${heading}\n\n` : ''}${section}\n`;
  await writeFile(file, next);
}
