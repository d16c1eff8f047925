// toolgate mcp: a local MCP server over stdio for desktop agents (Claude Desktop, Cursor, VS Code).
// It lists the gateway's tools and, on each call, pays within the caps (per call, per session,
// per day) through a GatewaySession; stdout carries only MCP messages, everything else goes to stderr.
import { Server, type Tool as McpTool } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { clientVersion } from '../../client/client-version.ts';
import type { GatewaySession } from '../../client/gateway-session.ts';
import type { Receipt } from '../../client/receipt.ts';
import { formatUsdc } from '../../client/usdc-amount.ts';
import { errorResult, paidResult } from './bridge-results.ts';

export interface BridgeOptions {
  session: GatewaySession;
  /** Where the bridge says what it is doing (stderr). */
  log: (line: string) => void;
}

function capsSentence(session: GatewaySession): string {
  const { maxPrice, sessionBudget, dailyBudget } = session.limits.options;
  return [
    `per call at most ${maxPrice !== undefined ? `${formatUsdc(maxPrice)} USDC` : 'the advertised price'}`,
    sessionBudget !== undefined ? `per session ${formatUsdc(sessionBudget)} USDC` : undefined,
    dailyBudget !== undefined ? `per day ${formatUsdc(dailyBudget)} USDC` : undefined,
  ]
    .filter(Boolean)
    .join(', ');
}

function paymentLine(receipt: Receipt): string {
  const { channel } = receipt;
  if (!channel) return `paid ${receipt.price} USDC, transaction ${receipt.transaction}${receipt.fallback ? ` (${receipt.fallback})` : ''}`;
  const how = channel.deposit !== undefined ? `deposited ${channel.deposit} USDC, transaction ${receipt.transaction}` : 'voucher';
  return `paid ${receipt.price} USDC from payment channel ${channel.id} (${how}; ${channel.charged} of ${channel.balance} USDC charged)`;
}

/** Serves until stdin closes. Reads the gateway's listing first: an unreachable gateway stops the start. */
export async function serveBridge({ session, log }: BridgeOptions): Promise<void> {
  const listed = await session.listTools();
  const payer = await session.payer();
  const caps = capsSentence(session);
  const tools: McpTool[] = listed.map((tool) => ({ ...tool, description: `${tool.description ?? ''} Paid automatically by the local toolgate bridge (${caps}).`.trim() }));
  log(`toolgate mcp: ${tools.length} tools, payer ${payer.address}, caps: ${caps}`);

  const handle = serveStdio(() => {
    const server = new Server(
      { name: 'toolgate-bridge', title: 'toolgate (paid automatically)', version: clientVersion },
      {
        capabilities: { tools: { listChanged: false } },
        instructions: `Tools of a toolgate gateway, each call paid in USDC by this bridge within its caps (${caps}). A call over a cap returns an error that states the price and how to raise the cap.`,
      },
    );
    server.setRequestHandler('tools/list', async () => ({ tools }));
    server.setRequestHandler('tools/call', async (request) => {
      const { name, arguments: args } = request.params;
      try {
        const paid = await session.call(name, args ?? {});
        log(`${name}: ${paid.receipt ? paymentLine(paid.receipt) : 'free'}`);
        return paidResult(paid);
      } catch (error) {
        log(`${name}: ${(error as Error).message}`);
        return errorResult(error);
      }
    });
    return server;
  }, { onerror: (error) => log(`stdio: ${error.message}`) });

  await new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
  });
  await handle.close();
  await session.close();
}
