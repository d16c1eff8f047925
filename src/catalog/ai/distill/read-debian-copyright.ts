// Debian machine-readable copyright files (debian/copyright, copyright-format 1.0, "DEP-5"): stanzas of
// "Field: value" lines separated by blank lines, values continued on indented lines, " ." an empty line.
// Read as text, their header lines fuse into one paragraph (which became the title); read by stanza,
// each field is an item "Field — value", each licence a section with its paragraphs.
import { squash, type Block, type ReadDocument } from './document.ts';

const FORMAT_LINE = /^Format:\s*\S*(?:copyright-format|dep5|DEP-5)/i;
const FIELD = /^([A-Za-z][\w-]*):[ \t]*(.*)$/;

export const isDebianCopyright = (content: string): boolean => FORMAT_LINE.test(content.replace(/^\s+/, ''));

interface Field {
  name: string;
  /** The value's first line (a licence's short name, a files pattern). */
  first: string;
  /** Its continuation lines, paragraphs split at " ." lines. */
  paragraphs: string[];
}

function stanzasOf(content: string): Field[][] {
  const stanzas: Field[][] = [];
  let stanza: Field[] = [];
  let field: Field | undefined;
  let paragraph: string[] = [];
  const endParagraph = () => {
    if (field && paragraph.length) field.paragraphs.push(squash(paragraph.join(' ')));
    paragraph = [];
  };
  const endStanza = () => {
    endParagraph();
    if (stanza.length) stanzas.push(stanza);
    [stanza, field] = [[], undefined];
  };
  for (const line of content.replace(/\r\n?/g, '\n').split('\n')) {
    if (!line.trim()) endStanza();
    else if (/^\s/.test(line) && field) {
      if (line.trim() === '.') endParagraph();
      else paragraph.push(line.trim());
    } else {
      const match = FIELD.exec(line);
      if (!match) continue;
      endParagraph();
      field = { name: match[1]!, first: match[2]!.trim(), paragraphs: [] };
      stanza.push(field);
    }
  }
  endStanza();
  return stanzas;
}

/** A field whose continuation lines go on with its value (Copyright holders, authors), not paragraphs of a text. */
const LISTING_FIELDS = /^(?:copyright|upstream-author|upstream-contact|files|source|disclaimer)$/i;

/** A stanza field's value on one line, e-mail addresses left out. */
const stanzaValue = (field: Field) => squash([field.first, ...field.paragraphs].join(' ').replace(/\s*<[^<>\s]+@[^<>\s]+>/g, ''));

/**
 * A files stanza as one line: which files, who holds their copyright, under which licence. Given once, not as a
 * heading and again as items, so that an opening reaches the later stanzas and their licences.
 */
function filesStanzaText(stanza: Field[], files: Field, licence: Field | undefined): string {
  const parts = [`Files: ${stanzaValue(files)}`];
  for (const field of stanza) {
    if (field === files) continue;
    if (field === licence) parts.push(`License: ${field.first}`);
    else if (LISTING_FIELDS.test(field.name)) parts.push(`${field.name}: ${stanzaValue(field)}`);
  }
  return parts.join('; ');
}

export function readDebianCopyright(content: string): ReadDocument {
  const stanzas = stanzasOf(content);
  const header = stanzas[0] ?? [];
  const name = header.find((field) => /^upstream-name$/i.test(field.name))?.first;
  const title = name ? `${name}: Debian copyright` : 'Debian copyright';
  const blocks: Block[] = [{ kind: 'heading', level: 1, text: title }];
  stanzas.forEach((stanza, i) => {
    const files = stanza.find((field) => /^files$/i.test(field.name));
    const licence = stanza.find((field) => /^license$/i.test(field.name));
    if (i > 0 && files) {
      // A licence text given inside the stanza is a section of its own, which the outline names.
      if (licence?.first && licence.paragraphs.length) blocks.push({ kind: 'heading', level: 2, text: `License: ${licence.first}` });
      const holders = stanza.find((field) => /^copyright$/i.test(field.name));
      // Who holds what under which licence, for the licence's notices (licence-notices.ts), as fields, not to be parsed back from the text.
      const notice = holders && licence?.first ? { stanza: { holders: stanzaValue(holders), licence: squash(licence.first) } } : {};
      blocks.push({ kind: 'item', text: filesStanzaText(stanza, files, licence), ...notice });
      for (const paragraph of licence?.paragraphs ?? []) blocks.push({ kind: 'paragraph', text: paragraph });
      return;
    }
    // A stand-alone licence stanza is a licence text: a section the outline names.
    if (i > 0 && licence?.first) blocks.push({ kind: 'heading', level: 2, text: `License: ${licence.first}` });
    for (const field of stanza) {
      if (/^format$/i.test(field.name) || (i === 0 && /^upstream-name$/i.test(field.name))) continue;
      if (LISTING_FIELDS.test(field.name)) {
        const value = squash([field.first, ...field.paragraphs].join(' '));
        // A bare web address (Source) says nothing once addresses are blanked.
        if (value && !/^\S+:\/\/\S+$/.test(value)) blocks.push({ kind: 'item', text: `${field.name} — ${value}` });
        continue;
      }
      // License, Comment and other texts: the short name as an item (a stand-alone licence's is its heading), the text as paragraphs.
      if (field.first && !(field === licence && i > 0)) blocks.push({ kind: 'item', text: `${field.name} — ${field.first}` });
      for (const paragraph of field.paragraphs) blocks.push({ kind: 'paragraph', text: paragraph });
    }
  });
  return { format: 'text', title, blocks, codeTerms: [] };
}
