// Pays toolgate's tools from code with the typed client (toolgate/client): one function per tool,
// input and output typed from the catalogue, each call paid in USDC within the caps you set.
// Against the local default started by `npm start` (the demo payer of .toolgate/devchain.json):
//   npm run example:client [-- <text to hash>]
import { pathToFileURL } from 'node:url';
import { createClient, SpendRefused } from 'toolgate/client';

async function main(): Promise<void> {
  const toolgate = createClient({
    url: process.env.TOOLGATE_URL ?? 'http://localhost:4021',
    dailyBudget: '0.05', // this machine's spend on this network today, across every toolgate process
    sessionBudget: '0.01', // this client object
  });
  try {
    const { output, receipt } = await toolgate.generate_hashes_and_uuids({ input: process.argv[2] ?? 'hello world' });
    // `output` is typed: the ids, and `hash` (SHA-256, SHA-512) because an input was given.
    if ('hash' in output) console.log(`sha256 ${output.hash.sha256}`);
    console.log(`uuidv7 ${output.uuidv7}`);
    // Paid from a payment channel when the gateway offers one and its deposit fits the budgets; here the
    // session budget (0.01) is below a channel's deposit (100 calls), so the receipt says it paid with exact.
    if (receipt?.channel) console.log(`paid ${receipt.price} USDC from payment channel ${receipt.channel.id} (${receipt.channel.charged} of ${receipt.channel.balance} USDC charged)`);
    else if (receipt) console.log(`paid ${receipt.price} USDC, transaction ${receipt.transaction}${receipt.explorerUrl ? ` (${receipt.explorerUrl})` : ''}${receipt.fallback ? ` (${receipt.fallback})` : ''}`);

    const regex = await toolgate.evaluate_regex({ pattern: 'a(n)', text: 'banana' });
    console.log(JSON.stringify(regex.output));
    console.log(`spent this session: ${toolgate.sessionSpent()} USDC`);
  } catch (error) {
    if (error instanceof SpendRefused) console.error(`not paid: ${error.message}`);
    throw error;
  } finally {
    await toolgate.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
