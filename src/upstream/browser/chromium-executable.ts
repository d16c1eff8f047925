// Where Chromium is and whether it is there. The gateway uses Debian's chromium package; the
// path can be moved with TOOLGATE_CHROMIUM_PATH.
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';

export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';

export function chromiumPathFrom(env: Readonly<Record<string, string | undefined>>): string {
  const configured = env.TOOLGATE_CHROMIUM_PATH?.trim();
  return configured ? configured : DEFAULT_CHROMIUM_PATH;
}

/** undefined when an executable file is at the path, else why not. */
export async function missingExecutableReason(executablePath: string): Promise<string | undefined> {
  const hint = '(set TOOLGATE_CHROMIUM_PATH or install Debian\'s chromium)';
  try {
    if (!(await stat(executablePath)).isFile()) return `Chromium not found at ${executablePath}: not a file ${hint}`;
    await access(executablePath, constants.X_OK);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES') return `Chromium at ${executablePath} is not executable ${hint}`;
    return `Chromium not found at ${executablePath} ${hint}`;
  }
}
