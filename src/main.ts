// Entry point: configuration -> (local chain) -> gateway -> listen; graceful shutdown.
import { ConfigError, loadConfig } from './config.ts';
import { createGateway } from './gateway.ts';
import { DatabaseUnreachableError } from './payments/ledger/postgres-client.ts';
import { atomicToUsdc } from './payments/price.ts';
import { warmUpLocalTools } from './warm-up.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  if (config.network === 'local') console.log('toolgate: starting a local chain (anvil) with Circle USDC...');
  const gateway = await createGateway(config);
  const address = await gateway.app.listen({ port: config.port, host: config.host });

  const { network, terms } = gateway;
  console.log(`toolgate ${network.name} (${network.caip2}) listening on ${address}`);
  console.log(`  public URL   ${config.publicBaseUrl}`);
  console.log(`  USDC         ${network.usdc.address} (EIP-712 "${network.usdc.name}" v${network.usdc.version})`);
  console.log(`  pay-to       ${terms.payTo}`);
  console.log(`  facilitator  ${gateway.facilitator.kind}`);
  if (gateway.devChain && gateway.devChainFile) {
    const balance = await gateway.chain.balanceOf(gateway.devChain.payer.address);
    console.log(`  local chain  ${gateway.devChain.rpcUrl}`);
    console.log(`  demo payer   ${gateway.devChain.payer.address} holds ${atomicToUsdc(balance)} USDC`);
    console.log(`  devchain.json written to ${gateway.devChainFile}`);
  }
  warmUpLocalTools(config.preload).then(
    (ms) => console.log(`toolgate: local tools warmed up in ${Math.round(ms)} ms (TOOLGATE_PRELOAD=${config.preload})`),
    (error: unknown) => console.error('toolgate: warming up the local tools failed (they will load on first use):', error),
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`toolgate: ${signal}, shutting down`);
    // Draining settlements may take their whole budget; the server and the rest get 10 s more.
    const force = setTimeout(() => process.exit(1), config.settlement.drainTimeoutMs + 10_000);
    force.unref();
    await gateway.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(`toolgate: ${error.message}`);
    process.exit(2);
  }
  if (error instanceof DatabaseUnreachableError) {
    console.error(`toolgate: ${error.message} (TOOLGATE_DATABASE_URL)`);
    process.exit(1);
  }
  console.error('toolgate failed to start:', error);
  process.exit(1);
});
