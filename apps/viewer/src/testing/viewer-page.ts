// What the browser tests do on the page: pick or drop files, wait for the reading pass, read the
// record view. Bound to a getter because each test opens a fresh page.
import type { Page } from 'playwright-core';

/** The page helpers of the browser tests, acting on whatever page `current` returns. */
export function viewerPage(current: () => Page) {
  return {
    /** Picks one file through the file input. */
    pick: async (name: string, bytes: Uint8Array): Promise<void> => {
      await current().setInputFiles('#file-input', {
        name,
        mimeType: 'application/octet-stream',
        buffer: Buffer.from(bytes),
      });
    },

    /** Drops one file on the page, as a drag from the desktop does. */
    drop: async (name: string, bytes: Uint8Array): Promise<void> => {
      const page = current();
      const transfer = await page.evaluateHandle(
        ({ name, base64 }) => {
          const data = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
          const dataTransfer = new DataTransfer();
          dataTransfer.items.add(new File([data], name));
          return dataTransfer;
        },
        { name, base64: Buffer.from(bytes).toString('base64') },
      );
      await page.dispatchEvent('body', 'drop', { dataTransfer: transfer });
    },

    /**
     * Waits for the end of the reading pass; resolves to the status line. Playwright's own wait is 30 s:
     * `timeout` (milliseconds) is for files that take longer beside the rest of the suite on 2 cores.
     */
    finished: async (timeout?: number): Promise<string> => {
      const page = current();
      await page.waitForSelector('#status[data-done="true"]', timeout === undefined ? {} : { timeout });
      return page.textContent('#status').then((text) => text ?? '');
    },

    /** Waits until the record view shows record `recordIndex` (its index in the file). */
    showsRecord: async (recordIndex: number): Promise<void> => {
      await current().waitForFunction(
        (heading) => document.querySelector('#record-view h2')?.textContent?.startsWith(heading),
        `Record ${recordIndex} `,
      );
    },

    /** Jumps to record `recordIndex` through the jump box. */
    jump: async (recordIndex: number): Promise<void> => {
      await current().fill('#jump', String(recordIndex));
      await current().press('#jump', 'Enter');
    },

    /** The text of the record view. */
    recordText: async (): Promise<string> => {
      return (await current().textContent('#record-view')) ?? '';
    },
  };
}
