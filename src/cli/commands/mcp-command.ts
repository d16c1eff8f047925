// toolgate mcp --url <gateway>/mcp [--max-price] [--session-budget] [--daily-budget] [--keystore]
import { payingSession } from '../../client/paying-session.ts';
import type { ParsedArgs } from '../args.ts';
import { serveBridge } from '../bridge/mcp-bridge.ts';
import { EXIT, err } from '../output.ts';
import { payingSettings } from '../settings.ts';

export async function mcpCommand(args: ParsedArgs): Promise<number> {
  // stdin is the MCP channel: a keystore's passphrase can only come from TOOLGATE_KEYSTORE_PASSWORD.
  const { askPassphrase: _unused, ...settings } = payingSettings(args);
  await serveBridge({ session: payingSession(settings), log: err });
  return EXIT.ok;
}
