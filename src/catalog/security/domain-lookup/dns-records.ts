// Record data in DNS presentation form (as the DoH JSON API gives it) read into fields.

export interface MxRecord {
  priority: number;
  exchange: string;
}

export interface CaaRecord {
  flags: number;
  tag: string;
  value: string;
}

export interface DsRecord {
  keyTag: number;
  algorithm: number;
  digestType: number;
  digest: string;
}

export interface DnskeyRecord {
  flags: number;
  protocol: number;
  algorithm: number;
  /** The SEP flag (bit 15) marks a key-signing key. */
  role: 'KSK' | 'ZSK';
}

export function hostName(data: string): string {
  return data.trim().toLowerCase().replace(/\.$/, '');
}

export function mxOf(data: string): MxRecord | undefined {
  const match = /^(\d+)\s+(\S+)$/.exec(data.trim());
  return match ? { priority: Number(match[1]), exchange: hostName(match[2]!) } : undefined;
}

/** `0 issue "letsencrypt.org"`, or the RFC 3597 generic form `\# 22 00 05 69 73 ...` some resolvers send. */
export function caaOf(data: string): CaaRecord | undefined {
  const text = data.trim();
  const generic = /^\\#\s+(\d+)\s*([0-9a-f\s]*)$/i.exec(text);
  if (generic) {
    const bytes = Buffer.from(generic[2]!.replace(/\s+/g, ''), 'hex');
    const tagLength = bytes[1];
    if (bytes.length !== Number(generic[1]) || tagLength === undefined || bytes.length < 2 + tagLength) return undefined;
    return { flags: bytes[0]!, tag: bytes.subarray(2, 2 + tagLength).toString('latin1').toLowerCase(), value: bytes.subarray(2 + tagLength).toString('utf8') };
  }
  const match = /^(\d+)\s+([a-z0-9]+)\s+(.*)$/i.exec(text);
  if (!match) return undefined;
  const value = match[3]!.trim();
  return { flags: Number(match[1]), tag: match[2]!.toLowerCase(), value: value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value };
}

export function dsOf(data: string): DsRecord | undefined {
  const match = /^(\d+)\s+(\d+)\s+(\d+)\s+([0-9a-f\s]+)$/i.exec(data.trim());
  return match ? { keyTag: Number(match[1]), algorithm: Number(match[2]), digestType: Number(match[3]), digest: match[4]!.replace(/\s+/g, '').toUpperCase() } : undefined;
}

export function dnskeyOf(data: string): DnskeyRecord | undefined {
  const match = /^(\d+)\s+(\d+)\s+(\d+)\s+\S/.exec(data.trim());
  if (!match) return undefined;
  const flags = Number(match[1]);
  return { flags, protocol: Number(match[2]), algorithm: Number(match[3]), role: (flags & 1) === 1 ? 'KSK' : 'ZSK' };
}

/** Drops what did not parse. */
export function parsedAll<T>(values: readonly string[], parse: (data: string) => T | undefined): T[] {
  return values.map(parse).filter((value): value is T => value !== undefined);
}
