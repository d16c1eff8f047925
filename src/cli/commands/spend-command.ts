// toolgate spend: what the local spend record holds for today (UTC), per network.
import { networkName } from '../../client/explorer.ts';
import { SpendRecord, utcDay } from '../../client/spend-record.ts';
import { spendRecordPath } from '../../client/toolgate-home.ts';
import { formatUsdc } from '../../client/usdc-amount.ts';
import type { ParsedArgs } from '../args.ts';
import { EXIT, json, out } from '../output.ts';

export async function spendCommand(args: ParsedArgs): Promise<number> {
  const record = new SpendRecord(spendRecordPath());
  const today = utcDay(new Date());
  const entries = (await record.entries()).filter((e) => e.day === today);
  const byNetwork = new Map<string, bigint>();
  for (const e of entries) byNetwork.set(e.network, (byNetwork.get(e.network) ?? 0n) + BigInt(e.amount));
  if (args.switches.json) {
    out(json({ day: today, record: record.path, totals: Object.fromEntries([...byNetwork].map(([n, a]) => [n, formatUsdc(a)])), entries }));
    return EXIT.ok;
  }
  out(`spend record ${record.path}, ${today} (UTC):`);
  if (entries.length === 0) out('nothing spent today');
  for (const [network, amount] of byNetwork) out(`${formatUsdc(amount)} USDC on ${networkName(network)} (${network})`);
  for (const e of entries) {
    const channel = !e.channel
      ? ''
      : e.channel.kind === 'deposit'
        ? `  deposit into channel ${e.channel.id}${e.channel.refunded ? ` (${formatUsdc(BigInt(e.channel.refunded))} refunded)` : ''}`
        : `  paid ${formatUsdc(BigInt(e.channel.charged ?? '0'))} from channel ${e.channel.id}`;
    out(`  ${e.at}  ${e.tool}  ${formatUsdc(BigInt(e.amount))} USDC  ${e.state}${channel}${e.transaction ? `  ${e.transaction}` : ''}`);
  }
  return EXIT.ok;
}
