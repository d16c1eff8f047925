// The command line, parsed: a command, its positional words, and --flags (`--name value` or
// `--name=value`). Unknown flags are errors that list the known ones.
export class UsageError extends Error {
  override name = 'UsageError';
}

export const valueFlags = ['url', 'max-price', 'daily-budget', 'session-budget', 'keystore', 'input', 'rpc-url', 'scheme', 'deposit', 'channel'] as const;
export const booleanFlags = ['json', 'dry-run', 'help'] as const;

export type ValueFlag = (typeof valueFlags)[number];
export type BooleanFlag = (typeof booleanFlags)[number];

export interface ParsedArgs {
  command: string | undefined;
  positionals: string[];
  values: Partial<Record<ValueFlag, string>>;
  switches: Partial<Record<BooleanFlag, true>>;
}

const isValueFlag = (name: string): name is ValueFlag => (valueFlags as readonly string[]).includes(name);
const isBooleanFlag = (name: string): name is BooleanFlag => (booleanFlags as readonly string[]).includes(name);

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const parsed: ParsedArgs = { command: undefined, positionals: [], values: {}, switches: {} };
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '-h') {
      parsed.switches.help = true;
      continue;
    }
    if (word === '--') {
      parsed.positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!word.startsWith('--')) {
      if (parsed.command === undefined) parsed.command = word;
      else parsed.positionals.push(word);
      continue;
    }
    const eq = word.indexOf('=');
    const name = word.slice(2, eq === -1 ? undefined : eq);
    if (isBooleanFlag(name)) {
      if (eq !== -1) throw new UsageError(`--${name} takes no value`);
      parsed.switches[name] = true;
    } else if (isValueFlag(name)) {
      const value = eq === -1 ? argv[++i] : word.slice(eq + 1);
      if (value === undefined || (eq === -1 && value.startsWith('--'))) throw new UsageError(`--${name} needs a value`);
      parsed.values[name] = value;
    } else {
      throw new UsageError(`unknown option --${name}; options: ${[...valueFlags.map((f) => `--${f} <value>`), ...booleanFlags.map((f) => `--${f}`)].join(', ')}`);
    }
  }
  return parsed;
}
