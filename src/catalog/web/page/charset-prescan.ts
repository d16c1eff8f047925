// The charset a document declares about itself in its first bytes: the HTML standard's <meta>
// prescan (simplified: comments skipped, <meta charset> and <meta http-equiv=content-type>), and
// the XML declaration's encoding for XML documents.

/** The HTML standard looks at the first 1024 bytes only. */
const PRESCAN_BYTES = 1024;

const META_OR_COMMENT = /<!--[\s\S]*?(?:-->|$)|<meta(?=[\s/])[^>]*>?/gi;
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"?|'([^']*)'?|([^\s>]*)))?/g;
const XML_DECLARATION = /^<\?xml\s[^>]*?encoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/;

/** The label a <meta> in the first 1024 bytes declares, as written, or null. */
export function prescanHtmlCharset(bytes: Uint8Array): string | null {
  // Latin-1 maps every byte to one character, so ASCII markup is found whatever the encoding.
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, PRESCAN_BYTES)).toString('latin1');
  for (const match of head.matchAll(META_OR_COMMENT)) {
    if (match[0].startsWith('<!--')) continue;
    const attributes = attributesOf(match[0].slice('<meta'.length));
    const charset = attributes.get('charset');
    if (charset !== undefined) {
      if (charset.trim()) return charset.trim();
      continue;
    }
    if (attributes.get('http-equiv')?.trim().toLowerCase() !== 'content-type') continue;
    const fromContent = charsetInContent(attributes.get('content') ?? '');
    if (fromContent) return fromContent;
  }
  return null;
}

/** The encoding an XML declaration at the very start names, or null. */
export function xmlDeclaredCharset(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 200)).toString('latin1');
  return XML_DECLARATION.exec(head)?.[1] ?? null;
}

function attributesOf(source: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of source.matchAll(ATTRIBUTE)) {
    const name = match[1]!.toLowerCase();
    // As in the standard, the first of repeated attributes counts.
    if (!attributes.has(name)) attributes.set(name, match[2] ?? match[3] ?? match[4] ?? '');
  }
  return attributes;
}

/** The standard's "extracting a character encoding from a meta element" on a content value. */
function charsetInContent(content: string): string | null {
  const match = /charset\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s;"']+))/i.exec(content);
  const value = match?.[1] ?? match?.[2] ?? match?.[3];
  return value?.trim() || null;
}
