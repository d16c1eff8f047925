// The parts of a Content-Type header the readers act on: the MIME type's essence and its charset.

export interface ContentType {
  /** Lower-case "type/subtype" without parameters; '' when the header is missing or malformed. */
  mimeType: string;
  /** The charset parameter as written (unquoted, trimmed), or null. */
  charset: string | null;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]+\/[!#$%&'*+.^_`|~0-9a-z-]+$/;

export function parseContentType(header: string | undefined): ContentType {
  if (!header) return { mimeType: '', charset: null };
  const [essence = '', ...parameters] = splitParameters(header);
  const mimeType = essence.trim().toLowerCase();
  let charset: string | null = null;
  for (const parameter of parameters) {
    const equals = parameter.indexOf('=');
    if (equals < 0) continue;
    if (parameter.slice(0, equals).trim().toLowerCase() !== 'charset') continue;
    const value = unquote(parameter.slice(equals + 1).trim());
    if (value) charset = value;
    break;
  }
  return { mimeType: TOKEN.test(mimeType) ? mimeType : '', charset };
}

/** Splits on semicolons that are not inside a quoted string. */
function splitParameters(header: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < header.length; i += 1) {
    const char = header[i]!;
    if (char === '"') quoted = !quoted;
    else if (char === '\\' && quoted) {
      current += char + (header[i + 1] ?? '');
      i += 1;
      continue;
    } else if (char === ';' && !quoted) {
      parts.push(current);
      current = '';
      continue;
    }
    current += char;
  }
  parts.push(current);
  return parts;
}

function unquote(value: string): string {
  if (!value.startsWith('"')) return value;
  return value.slice(1, value.endsWith('"') ? -1 : undefined).replace(/\\(.)/g, '$1').trim();
}
