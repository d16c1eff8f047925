// An in-memory table of address ranges to autonomous systems, built from the CSV files of
// @ip-location-db/asn ("first,last,asn,organization", addresses as unsigned decimal integers,
// ranges sorted and inclusive). Lookups are a binary search over typed arrays.

export interface AutonomousSystem {
  number: number;
  organization: string;
}

export interface AsnTable {
  readonly family: 4 | 6;
  readonly size: number;
  /** The system announcing the address, or null when no range holds it. */
  lookup(address: bigint): AutonomousSystem | null;
}

const LOW_64 = (1n << 64n) - 1n;
/** Rows parsed between two yields to the event loop, so a first load does not stall other calls. */
const ROWS_PER_SLICE = 25_000;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function unquote(field: string): string {
  if (field.length >= 2 && field.startsWith('"') && field.endsWith('"')) return field.slice(1, -1).replaceAll('""', '"');
  return field;
}

/** Parses the CSV text of one family. Malformed lines are an error: the file ships with the package. */
export async function parseAsnCsv(text: string, family: 4 | 6): Promise<AsnTable> {
  let capacity = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) capacity += 1;
  capacity += 1;

  const asns = new Uint32Array(capacity);
  const orgIndex = new Uint32Array(capacity);
  const organizations: string[] = [];
  const orgIds = new Map<string, number>();
  const v4 = family === 4 ? { starts: new Uint32Array(capacity), ends: new Uint32Array(capacity) } : null;
  const v6 = family === 6
    ? { startHi: new BigUint64Array(capacity), startLo: new BigUint64Array(capacity), endHi: new BigUint64Array(capacity), endLo: new BigUint64Array(capacity) }
    : null;

  let rows = 0;
  let lineNumber = 0;
  for (let from = 0; from < text.length; ) {
    let to = text.indexOf('\n', from);
    if (to === -1) to = text.length;
    const line = text.charCodeAt(to - 1) === 13 ? text.slice(from, to - 1) : text.slice(from, to);
    from = to + 1;
    lineNumber += 1;
    if (line.length === 0) continue;

    const c1 = line.indexOf(',');
    const c2 = line.indexOf(',', c1 + 1);
    const c3 = line.indexOf(',', c2 + 1);
    const asn = Number(line.slice(c2 + 1, c3));
    if (c1 < 1 || c2 < 0 || c3 < 0 || !Number.isInteger(asn)) throw new Error(`ASN data, IPv${family} line ${lineNumber}: not "first,last,asn,organization"`);
    if (v4) {
      v4.starts[rows] = Number(line.slice(0, c1));
      v4.ends[rows] = Number(line.slice(c1 + 1, c2));
    } else if (v6) {
      const first = BigInt(line.slice(0, c1));
      const last = BigInt(line.slice(c1 + 1, c2));
      v6.startHi[rows] = first >> 64n;
      v6.startLo[rows] = first & LOW_64;
      v6.endHi[rows] = last >> 64n;
      v6.endLo[rows] = last & LOW_64;
    }
    const organization = unquote(line.slice(c3 + 1));
    let id = orgIds.get(organization);
    if (id === undefined) {
      id = organizations.push(organization) - 1;
      orgIds.set(organization, id);
    }
    asns[rows] = asn;
    orgIndex[rows] = id;
    rows += 1;
    if (rows % ROWS_PER_SLICE === 0) await nextTurn();
  }

  const found = (row: number): AutonomousSystem => ({ number: asns[row]!, organization: organizations[orgIndex[row]!]! });

  if (v4) {
    const { starts, ends } = v4;
    return {
      family,
      size: rows,
      lookup(address) {
        const value = Number(address);
        // The last range starting at or before the address, then check it reaches the address.
        let low = 0;
        let high = rows - 1;
        let candidate = -1;
        while (low <= high) {
          const middle = (low + high) >>> 1;
          if (starts[middle]! <= value) {
            candidate = middle;
            low = middle + 1;
          } else high = middle - 1;
        }
        return candidate >= 0 && ends[candidate]! >= value ? found(candidate) : null;
      },
    };
  }

  const { startHi, startLo, endHi, endLo } = v6!;
  return {
    family,
    size: rows,
    lookup(address) {
      const hi = address >> 64n;
      const lo = address & LOW_64;
      let low = 0;
      let high = rows - 1;
      let candidate = -1;
      while (low <= high) {
        const middle = (low + high) >>> 1;
        const startsAtOrBefore = startHi[middle]! < hi || (startHi[middle] === hi && startLo[middle]! <= lo);
        if (startsAtOrBefore) {
          candidate = middle;
          low = middle + 1;
        } else high = middle - 1;
      }
      if (candidate < 0) return null;
      const reaches = endHi[candidate]! > hi || (endHi[candidate] === hi && endLo[candidate]! >= lo);
      return reaches ? found(candidate) : null;
    },
  };
}

/** An address as the unsigned integer the ASN files use. */
export function addressToBigInt(bytes: readonly number[]): bigint {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  return value;
}
