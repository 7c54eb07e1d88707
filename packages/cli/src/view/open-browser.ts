import { spawn } from 'node:child_process';

/**
 * Opens `url` in the user's browser (`open` on macOS, `start` on Windows, `xdg-open` elsewhere).
 * @returns false when no opener could be started: the caller has printed the URL to open by hand.
 */
export async function openBrowser(url: string): Promise<boolean> {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url.replaceAll('&', '^&')]]
        : ['xdg-open', [url]];
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}
