// The toolgate command line: dispatches to a command, turns every error into a reason on stderr
// and an exit status (0 success, 1 failed, 2 usage or configuration, 3 refused by a cap).
import { SpendRefused } from '../client/spend-refusal.ts';
import { parseArgs, UsageError } from './args.ts';
import { callCommand } from './commands/call-command.ts';
import { mcpCommand } from './commands/mcp-command.ts';
import { spendCommand } from './commands/spend-command.ts';
import { toolsCommand } from './commands/tools-command.ts';
import { walletCommand } from './commands/wallet-command.ts';
import { EXIT, err, json, out } from './output.ts';
import { usage } from './usage.ts';

const commands: Readonly<Record<string, (args: ReturnType<typeof parseArgs>) => Promise<number>>> = {
  tools: toolsCommand,
  call: callCommand,
  mcp: mcpCommand,
  wallet: walletCommand,
  spend: spendCommand,
};

export async function runCli(argv: readonly string[]): Promise<number> {
  let wantsJson = false;
  try {
    const args = parseArgs(argv);
    wantsJson = args.switches.json === true;
    if (args.switches.help || args.command === undefined || args.command === 'help') {
      out(usage);
      return args.command === undefined && !args.switches.help ? EXIT.usage : EXIT.ok;
    }
    const command = commands[args.command];
    if (!command) throw new UsageError(`unknown command ${JSON.stringify(args.command)}; commands: ${Object.keys(commands).join(', ')} (toolgate --help)`);
    return await command(args);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (wantsJson && error instanceof SpendRefused) err(json(error.toJSON()));
    else err(`toolgate: ${message}`);
    if (error instanceof SpendRefused) return EXIT.refused;
    if (error instanceof UsageError) return EXIT.usage;
    return EXIT.failed;
  }
}
