// Debian changelogs (debian/changelog, changelog.Debian): "package (version) distribution; urgency=…"
// headers, "  * entry" lines with "    - sub-entry" lines under them, and a trailer
// " -- Maintainer <email>  Day, DD Mon YYYY hh:mm:ss +zone". Each entry becomes a release with its
// version, date, maintainer and entries, so none of them is fused with its neighbour's. The headers keep the
// changelog's own spelling ("libxcb (1.15-1) unstable"), and the newest upload is also given as its header and
// trailer write it ("libxcb (1.15-1), Thu, 04 Aug 2022"; round 11): it is how a reader quotes a Debian upload.
import { squash, type Block, type ReadDocument, type Release } from './document.ts';
import { withoutRoutineChanges } from './releases.ts';

const HEADER = /^([a-z0-9][a-z0-9+.-]+) \(([^()\s]+)\) ([^;\n]+);[^\n]*urgency=/;
/** The maintainer and the date, as the trailer writes it ("Thu, 04 Aug 2022", its time left out) and as a release gives it ("04 Aug 2022"). */
const TRAILER = /^ -- (.+?) <[^>]*>\s+((?:\w{3}, )?(\d{1,2} \w{3} \d{4}))/;
const ENTRY = /^(\s+)([*+-]) (.*)$/;

export const isDebianChangelog = (content: string): boolean => HEADER.test(content.replace(/^\s+/, ''));

export function readDebianChangelog(content: string): ReadDocument {
  const lines = content.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  const releases: Release[] = [];
  let source = '';
  /** The newest upload as its header and trailer write it. */
  let newest = '';
  let release: Release | undefined;
  let entry: string[] | undefined;
  /** The release's "[ Name ]" groups, in order. */
  let authors: string[] = [];
  const flush = () => {
    if (entry && release) {
      const text = squash(entry.join(' '));
      if (text) {
        release.changes.push(text);
        blocks.push({ kind: 'item', text });
      }
    }
    entry = undefined;
  };
  for (const line of lines) {
    const header = HEADER.exec(line);
    if (header) {
      flush();
      source ||= header[1]!;
      const distribution = squash(header[3]!);
      release = { version: header[2]!, ...(/^unstable$/i.test(distribution) ? {} : { distribution }), date: '', changes: [] };
      releases.push(release);
      // The header as written, its urgency left out: "libxcb (1.15-1) unstable" names the package with its version.
      blocks.push({ kind: 'heading', level: 2, text: `${header[1]} (${header[2]}) ${distribution}` });
      continue;
    }
    const trailer = TRAILER.exec(line);
    if (trailer && release) {
      flush();
      release.date = trailer[3]!;
      if (releases.length === 1) newest = `${source} (${release.version}), ${trailer[2]!}`;
      const maintainer = squash(trailer[1]!);
      const others = authors.filter((author) => author !== maintainer);
      release.by = others.length > 0 ? `${maintainer}; changes by ${others.join(', ')}` : maintainer;
      authors = [];
      continue;
    }
    // "[ Name ]" groups entries by their author (a team upload names who made which change); comments start with "#".
    const group = /^\s+\[ (.*) \]\s*$/.exec(line);
    if (group || /^#/.test(line)) {
      flush();
      if (group && !authors.includes(squash(group[1]!))) authors.push(squash(group[1]!));
      continue;
    }
    const item = ENTRY.exec(line);
    if (item) {
      flush();
      entry = [item[3]!];
    } else if (line.trim() === '') flush();
    else if (entry) entry.push(line.trim());
  }
  flush();
  const title = source ? `${source} Debian changelog` : undefined;
  return { format: 'text', ...(title ? { title } : {}), ...(newest ? { newest } : {}), blocks: title ? [{ kind: 'heading', level: 1, text: title }, ...blocks] : blocks, codeTerms: [], releases: withoutRoutineChanges(releases) };
}
