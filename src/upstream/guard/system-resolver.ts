// The operating system's resolver (node:dns lookup, so /etc/hosts and the search domains apply as
// they would for any program on this machine), answering every address of a name.
import { lookup } from 'node:dns/promises';
import type { HostResolver } from '../http/http-types.ts';

export const systemResolver: HostResolver = async (hostname) => {
  // verbatim: the order the resolver gave, so the guard sees every address as it came.
  const addresses = await lookup(hostname, { all: true, verbatim: true });
  return addresses.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};
