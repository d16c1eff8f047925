// A `lookup` for node:net that answers one already-checked address instead of asking DNS again,
// so the address the guard approved is the address the socket connects to.
import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from './http-types.ts';

export function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    // With autoSelectFamily (node 20's default) net asks for all addresses and expects a list.
    if (options.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  };
}
