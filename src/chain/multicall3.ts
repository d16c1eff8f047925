// Multicall3 (mds1/multicall), at the address it has on every major chain, Base included. The
// settlement engine batches through its aggregate3; the local chain gets the same contract there.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Address, Hex } from 'viem';

export const MULTICALL3_ADDRESS: Address = '0xcA11bde05977b3631167028862bE2a173976CA11';

const require = createRequire(import.meta.url);

/**
 * Multicall3's real creation code. viem (pinned) ships it for its deployless reads but does not
 * export it: read from its published constants file.
 */
export function multicall3CreationCode(): Hex {
  const source = readFileSync(join(dirname(require.resolve('viem')), '../_esm/constants/contracts.js'), 'utf8');
  const match = /multicall3Bytecode = '(0x[0-9a-f]+)'/.exec(source);
  if (!match) throw new Error('Multicall3 creation code not found in viem');
  return match[1] as Hex;
}
