// USDC prices: decimal strings in the catalogue, atomic units (6 decimals) on the wire. Exact: no floats.
export const USDC_DECIMALS = 6;
const decimalPrice = /^(0|[1-9]\d*)(\.\d+)?$/;

export function usdcToAtomic(price: string): bigint {
  const match = decimalPrice.exec(price);
  if (!match) throw new Error(`price "${price}" is not a non-negative decimal string`);
  const [whole, fraction = ''] = price.split('.') as [string, string?];
  if (fraction.length > USDC_DECIMALS) throw new Error(`price "${price}" has more than ${USDC_DECIMALS} decimals`);
  return BigInt(whole) * 10n ** BigInt(USDC_DECIMALS) + BigInt(fraction.padEnd(USDC_DECIMALS, '0'));
}

export function atomicToUsdc(amount: bigint): string {
  const sign = amount < 0n ? '-' : '';
  const abs = amount < 0n ? -amount : amount;
  const scale = 10n ** BigInt(USDC_DECIMALS);
  const fraction = (abs % scale).toString().padStart(USDC_DECIMALS, '0').replace(/0+$/, '');
  return `${sign}${abs / scale}${fraction ? `.${fraction}` : ''}`;
}
