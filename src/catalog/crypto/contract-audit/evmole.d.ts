// evmole ships its types (dist/evmole.d.ts) but its package.json "exports" do not point at them;
// this declares the one function used, as that file types it.
declare module 'evmole' {
  export function contractInfo(code: string, args: { selectors?: boolean }): { functions?: { selector: string }[] };
}
