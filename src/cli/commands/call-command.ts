// toolgate call <tool> [name=value …] [--input '{json}']: pays within the caps and prints the
// result, the price and the receipt; --dry-run shows the price and what would be signed.
import { networkName } from '../../client/explorer.ts';
import { findTool } from '../../client/gateway-tools.ts';
import { payingSession } from '../../client/paying-session.ts';
import { formatUsdc } from '../../client/usdc-amount.ts';
import { UsageError, type ParsedArgs } from '../args.ts';
import { EXIT, json, out } from '../output.ts';
import { payingSettings } from '../settings.ts';
import { toolInput } from '../tool-arguments.ts';

export async function callCommand(args: ParsedArgs): Promise<number> {
  const [name, ...words] = args.positionals;
  if (!name) throw new UsageError('which tool? toolgate call <tool> [name=value …] (list them with: toolgate tools)');
  const session = payingSession(payingSettings(args));
  try {
    const tool = findTool(await session.tools(), name);
    const input = toolInput(tool, words, args.values.input);
    if (args.switches['dry-run']) {
      const run = await session.dryRun(name, input);
      if ('channel' in run) {
        const { channel } = run;
        const price = formatUsdc(channel.price);
        if (args.switches.json) {
          out(json({ tool: name, dryRun: true, price, scheme: 'batch-settlement', channel: { id: channel.id, charged: formatUsdc(channel.charged), balance: formatUsdc(channel.balance), ...(channel.deposit !== undefined ? { deposit: formatUsdc(channel.deposit) } : {}) } }));
        } else {
          out(`${name} costs ${price} USDC; within the caps. Nothing was signed (dry run).`);
          out(channel.deposit !== undefined
            ? `Would open payment channel ${channel.id} with a deposit of ${formatUsdc(channel.deposit)} USDC (counted against the budgets) and pay this call from it by voucher.`
            : `Would pay by voucher from payment channel ${channel.id}: ${formatUsdc(channel.charged + channel.price)} of ${formatUsdc(channel.balance)} USDC charged after this call.`);
        }
        return EXIT.ok;
      }
      if (!('preview' in run)) {
        // The gateway did not ask for payment: the tool ran for free.
        out(args.switches.json ? json({ tool: name, output: run.output, receipt: null }) : json(run.output));
        return EXIT.ok;
      }
      const { preview } = run;
      const price = formatUsdc(BigInt(preview.requirements.amount));
      if (args.switches.json) out(json({ tool: name, dryRun: true, price, scheme: 'exact', ...preview, ...(run.fallback ? { fallback: run.fallback } : {}) }));
      else {
        if (run.fallback) out(`(${run.fallback})`);
        out(`${name} costs ${price} USDC on ${networkName(preview.requirements.network)}; within the caps. Nothing was signed (dry run).`);
        out('Would sign EIP-3009 TransferWithAuthorization:');
        out(json({ domain: preview.domain, message: preview.authorization }));
      }
      return EXIT.ok;
    }
    const paid = await session.call(name, input);
    if (args.switches.json) {
      out(json({ tool: name, output: paid.output, receipt: paid.receipt ?? null }));
      return EXIT.ok;
    }
    out(typeof paid.output === 'string' ? paid.output : json(paid.output));
    if (paid.receipt) {
      const r = paid.receipt;
      out(`\npaid ${r.price} USDC on ${networkName(r.network)} from ${r.payer} to ${r.payTo}${r.channel ? ` from payment channel ${r.channel.id}` : ''}`);
      if (r.channel?.deposit !== undefined) out(`deposited ${r.channel.deposit} USDC into the channel, transaction ${r.transaction}${r.explorerUrl ? `\n${r.explorerUrl}` : ''}`);
      else if (r.channel) out(`voucher: nothing on chain until the gateway collects`);
      else out(`transaction ${r.transaction}${r.explorerUrl ? `\n${r.explorerUrl}` : ''}`);
      if (r.channel) out(`channel: ${r.channel.charged} of ${r.channel.balance} USDC charged`);
      if (r.fallback) out(`(${r.fallback})`);
    } else out('\n(not charged: the gateway did not ask for payment)');
    return EXIT.ok;
  } finally {
    await session.close();
  }
}
