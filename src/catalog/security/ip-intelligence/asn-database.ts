// Autonomous system number and organisation of an address, from @ip-location-db/asn: RouteViews
// BGP data, the five RIRs' delegation files (NRO) and DB-IP's "IP to ASN Lite" organisation names,
// merged by the ip-location-db project (all CC BY 4.0). Each family's CSV is parsed once, lazily.
import { readFile } from 'node:fs/promises';
import { parseAsnCsv } from './asn-ranges.ts';
import { loadOnce } from './load-once.ts';
import { packageFile } from './package-files.ts';

export const ASN_PACKAGE = '@ip-location-db/asn';

const loadTable = async (family: 4 | 6) =>
  parseAsnCsv(await readFile(packageFile(ASN_PACKAGE, `asn-ipv${family}-num.csv`), 'utf8'), family);

export const asnTables = {
  4: loadOnce(() => loadTable(4)),
  6: loadOnce(() => loadTable(6)),
} as const;
