// Reads a passphrase from the terminal without echoing it (stderr shows the question).
import type { ReadStream } from 'node:tty';

export function promptPassphrase(question: string): Promise<string> {
  const input = process.stdin as ReadStream;
  if (!input.isTTY) return Promise.reject(new Error('no terminal to ask the passphrase on: set TOOLGATE_KEYSTORE_PASSWORD'));
  process.stderr.write(question);
  return new Promise((resolve, reject) => {
    let typed = '';
    const finish = (error?: Error) => {
      input.setRawMode(false);
      input.pause();
      input.off('data', onData);
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n' || char === '\u0004') return finish();
        if (char === '\u0003') return finish(new Error('cancelled'));
        if (char === '\u007f' || char === '\b') typed = [...typed].slice(0, -1).join('');
        else typed += char;
      }
    };
    input.setRawMode(true);
    input.resume();
    input.on('data', onData);
  });
}
