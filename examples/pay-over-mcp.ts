// Pays for a toolgate tool over MCP: the official MCP client (protocol 2026-07-28, or the 2025 era
// with --legacy) meets the payment-required result, the official x402 client (@x402/core +
// @x402/evm) signs it, and the call is made again with the payment in _meta["x402/payment"].
// Against the local default started by `npm start`:
//   npm run example:pay-mcp [-- <tool> [<arguments as JSON>]] [--legacy]
//   e.g. npm run example:pay-mcp -- evaluate_regex '{"pattern":"a(n)","text":"banana"}'
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { x402Client } from '@x402/core/client';
import type { Network, PaymentRequired, SettleResponse } from '@x402/core/types';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { privateKeyToAccount } from 'viem/accounts';
import type { DevChainInfo } from './pay-with-official-client.ts';

export interface PaidToolCall {
  result: { isError?: boolean; structuredContent?: unknown; content: unknown[]; _meta?: Record<string, unknown> };
  settlement: SettleResponse | undefined;
  protocolVersion: string | undefined;
}

const isPaymentRequired = (value: unknown): value is PaymentRequired =>
  typeof value === 'object' && value !== null && (value as { x402Version?: unknown }).x402Version === 2 && Array.isArray((value as { accepts?: unknown }).accepts);

/** Calls `tool`; when the answer asks for payment, signs it with the payer's key and calls again. */
export async function payForToolOverMcp(
  mcpUrl: string,
  devChain: DevChainInfo,
  tool: string,
  args: Record<string, unknown>,
  era: 'modern' | 'legacy' = 'modern',
): Promise<PaidToolCall> {
  const payments = new x402Client();
  registerExactEvmScheme(payments, { signer: privateKeyToAccount(devChain.payer.privateKey) });
  // The official client pays only in assets it knows; a local chain's USDC must be allowed by hand.
  payments.setSpendControls({ allowedAssets: [{ network: devChain.network as Network, asset: devChain.usdc }] });

  const mcp = new Client({ name: 'toolgate-example', version: '1.0.0' }, { versionNegotiation: { mode: era === 'modern' ? 'auto' : 'legacy' } });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
  try {
    const first = (await mcp.callTool({ name: tool, arguments: args })) as PaidToolCall['result'];
    if (!first.isError || !isPaymentRequired(first.structuredContent)) {
      return { result: first, settlement: undefined, protocolVersion: mcp.getNegotiatedProtocolVersion() };
    }
    const payment = await payments.createPaymentPayload(first.structuredContent);
    const paid = (await mcp.callTool({ name: tool, arguments: args, _meta: { 'x402/payment': payment } })) as PaidToolCall['result'];
    return {
      result: paid,
      settlement: paid._meta?.['x402/payment-response'] as SettleResponse | undefined,
      protocolVersion: mcp.getNegotiatedProtocolVersion(),
    };
  } finally {
    await mcp.close();
  }
}

async function main(): Promise<void> {
  const dataDir = resolve(process.env.TOOLGATE_DATA_DIR ?? '.toolgate');
  const devChain = JSON.parse(await readFile(resolve(dataDir, 'devchain.json'), 'utf8')) as DevChainInfo;
  const baseUrl = process.env.TOOLGATE_URL ?? `http://localhost:${process.env.PORT ?? 4021}`;
  const positional = process.argv.slice(2).filter((a) => a !== '--legacy');
  const tool = positional[0] ?? 'generate_hashes_and_uuids';
  const args = JSON.parse(positional[1] ?? '{}') as Record<string, unknown>;

  const { result, settlement, protocolVersion } = await payForToolOverMcp(`${baseUrl}/mcp`, devChain, tool, args, process.argv.includes('--legacy') ? 'legacy' : 'modern');
  console.log(`MCP ${protocolVersion}: ${tool} ${result.isError ? 'failed' : 'answered'}`);
  console.log(JSON.stringify(result.structuredContent ?? result.content, null, 2));
  if (settlement) console.log('payment:', settlement);
  if (result.isError) process.exitCode = 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
