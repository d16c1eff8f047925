// DMARC (RFC 7489): the policy record at _dmarc.<domain>, its tags with their defaults (section 6.3).

export type DmarcPolicy = 'none' | 'quarantine' | 'reject';

export interface DmarcRecord {
  text: string;
  policy: DmarcPolicy | null;
  /** sp, or p when sp is absent. */
  subdomainPolicy: DmarcPolicy | null;
  pct: number;
  rua: string[];
  ruf: string[];
  adkim: 'r' | 's';
  aspf: 'r' | 's';
  fo: string;
  /** Problems that make receivers ignore or misread the record. */
  errors: string[];
}

const POLICIES = new Set(['none', 'quarantine', 'reject']);

/** DMARC records among the TXT texts at _dmarc (section 6.6.3: more than one means none applies). */
export function dmarcRecordsOf(texts: readonly string[]): string[] {
  return texts.filter((text) => /^v\s*=\s*DMARC1\s*(;|$)/i.test(text));
}

export function parseDmarc(text: string): DmarcRecord {
  const tags = new Map<string, string>();
  for (const part of text.split(';')) {
    const match = /^\s*([a-z]+)\s*=\s*(.*?)\s*$/i.exec(part);
    if (match) tags.set(match[1]!.toLowerCase(), match[2]!);
  }
  const errors: string[] = [];
  const policy = policyOf(tags.get('p'), 'p', errors);
  if (tags.get('p') === undefined) errors.push('no p= tag (the policy is required)');
  const subdomainPolicy = tags.has('sp') ? policyOf(tags.get('sp'), 'sp', errors) : policy;
  const pctText = tags.get('pct');
  const pct = pctText === undefined ? 100 : /^\d{1,3}$/.test(pctText) && Number(pctText) <= 100 ? Number(pctText) : (errors.push(`pct=${pctText} is not 0-100`), 100);
  return {
    text,
    policy,
    subdomainPolicy,
    pct,
    rua: uris(tags.get('rua')),
    ruf: uris(tags.get('ruf')),
    adkim: tags.get('adkim')?.toLowerCase() === 's' ? 's' : 'r',
    aspf: tags.get('aspf')?.toLowerCase() === 's' ? 's' : 'r',
    fo: tags.get('fo') ?? '0',
    errors,
  };
}

function policyOf(value: string | undefined, tag: string, errors: string[]): DmarcPolicy | null {
  if (value === undefined) return null;
  const policy = value.toLowerCase();
  if (POLICIES.has(policy)) return policy as DmarcPolicy;
  errors.push(`${tag}=${value} is not none, quarantine or reject`);
  return null;
}

function uris(value: string | undefined): string[] {
  return value ? value.split(',').map((uri) => uri.trim()).filter(Boolean) : [];
}
