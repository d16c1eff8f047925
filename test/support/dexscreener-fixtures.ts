// DexScreener replayed under /dexscreener on a fixture server, from the recorded answers in
// test/fixtures/upstream/dexscreener (see SOURCES.md there).
import { baseContracts } from '../../src/upstream/chain/base-contracts.ts';
import type { FixtureAnswer, FixtureServer } from './fixture-server.ts';
import { fixture, jsonAnswer } from './fixture-server.ts';

export const DEXSCREENER_PREFIX = '/dexscreener';

export const dexscreenerAnswer = (file: string): FixtureAnswer => jsonAnswer(fixture(`upstream/dexscreener/${file}`).toString('utf8'));

export const tokenPairsPath = (address: string) => `${DEXSCREENER_PREFIX}/token-pairs/v1/base/${address}`;

/** Happy answers: a search for USDC, USDC's Base pools, and no pools for WETH as a token of its own. */
export function serveDexscreener(server: FixtureServer): void {
  server.on(`${DEXSCREENER_PREFIX}/latest/dex/search`, (request) =>
    request.query.get('q')?.toLowerCase() === 'usdc' ? dexscreenerAnswer('search-usdc.json') : dexscreenerAnswer('search-empty.json'),
  );
  server.on(tokenPairsPath(baseContracts.mainnet.usdc), dexscreenerAnswer('token-pairs-usdc-base.json'));
  server.on(tokenPairsPath(baseContracts.mainnet.weth), dexscreenerAnswer('token-pairs-empty.json'));
}
