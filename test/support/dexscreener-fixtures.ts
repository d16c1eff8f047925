// DexScreener replayed under /dexscreener on a fixture server, from the recorded answers in
// test/fixtures/upstream/dexscreener (see SOURCES.md there).
import { baseContracts } from '../../src/upstream/chain/base-contracts.ts';
import type { FixtureAnswer, FixtureServer } from './fixture-server.ts';
import { fixture, jsonAnswer } from './fixture-server.ts';

export const DEXSCREENER_PREFIX = '/dexscreener';

export const dexscreenerAnswer = (file: string): FixtureAnswer => jsonAnswer(fixture(`upstream/dexscreener/${file}`).toString('utf8'));

export const tokenPairsPath = (address: string) => `${DEXSCREENER_PREFIX}/token-pairs/v1/base/${address}`;

/** Happy answers: a search for USDC, USDC's Base pools, no pools for WETH as a token of its own, the top boosts and their pairs. */
export function serveDexscreener(server: FixtureServer): void {
  server.on(`${DEXSCREENER_PREFIX}/latest/dex/search`, (request) =>
    request.query.get('q')?.toLowerCase() === 'usdc' ? dexscreenerAnswer('search-usdc.json') : dexscreenerAnswer('search-empty.json'),
  );
  server.on(tokenPairsPath(baseContracts.mainnet.usdc), dexscreenerAnswer('token-pairs-usdc-base.json'));
  server.on(tokenPairsPath(baseContracts.mainnet.weth), dexscreenerAnswer('token-pairs-empty.json'));
  server.on(`${DEXSCREENER_PREFIX}/token-boosts/top/v1`, dexscreenerAnswer('token-boosts-top.json'));
  // The Base tokens of the boosts fixture, by total boosts: USDC, then the copycat.
  server.on(`${DEXSCREENER_PREFIX}/tokens/v1/base/${baseContracts.mainnet.usdc},${COPYCAT}`, dexscreenerAnswer('tokens-usdc-copycat-base.json'));
}

const COPYCAT = '0x1111111111111111111111111111111111111111';
