// A viem local account whose EIP-712 signatures come from libsecp256k1 (the native binding the
// gateway already uses for recovery) instead of viem's pure-JS curve: ~0.17 ms a signature instead
// of ~0.75 ms, so that the bench's clients are not what limits a voucher load. RFC 6979 makes ECDSA
// deterministic: the bytes are the same as viem's, which `sameAsViem` checks once per run.
import { createRequire } from 'node:module';
import { hashTypedData, type Hex, type LocalAccount, type TypedDataDefinition } from 'viem';
import { privateKeyToAccount, toAccount } from 'viem/accounts';

interface NativeSecp256k1 {
  ecdsaSign(message: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array; recid: number };
}

const native = createRequire(import.meta.url)('secp256k1') as NativeSecp256k1;
const bytes = (hex: Hex) => Buffer.from(hex.slice(2), 'hex');

export function nativeAccount(privateKey: Hex): LocalAccount {
  const viemAccount = privateKeyToAccount(privateKey);
  const key = bytes(privateKey);
  const signDigest = (digest: Hex): Hex => {
    const { signature, recid } = native.ecdsaSign(bytes(digest), key);
    return `0x${Buffer.from(signature).toString('hex')}${(27 + recid).toString(16)}` as Hex;
  };
  return toAccount({
    address: viemAccount.address,
    signMessage: (args) => viemAccount.signMessage(args),
    signTransaction: (tx, options) => viemAccount.signTransaction(tx, options as never),
    signTypedData: async (typedData) => signDigest(hashTypedData(typedData as TypedDataDefinition)),
  });
}

/** Throws unless the native account signs `typedData` to the very bytes viem's own account does. */
export async function sameAsViem(privateKey: Hex, typedData: TypedDataDefinition): Promise<void> {
  const [ours, viems] = await Promise.all([nativeAccount(privateKey).signTypedData(typedData as never), privateKeyToAccount(privateKey).signTypedData(typedData as never)]);
  if (ours !== viems) throw new Error(`native EIP-712 signature ${ours} differs from viem's ${viems}`);
}
