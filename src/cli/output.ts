// Where the command line writes: results on stdout, reasons on stderr (stdout stays parseable).
export const out = (text: string): void => void process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
export const err = (text: string): void => void process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);

/** JSON that carries bigints as decimal strings. */
export const json = (value: unknown): string => JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2);

/** Exit statuses: 0 success, 1 the call failed, 2 bad usage or configuration, 3 refused by a cap. */
export const EXIT = { ok: 0, failed: 1, usage: 2, refused: 3 } as const;
