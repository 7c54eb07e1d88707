import { byId, element } from './dom.js';
import { counted } from './words.js';
import type { LostRange, Problem } from './worker-protocol.js';
import type { ScanEvent } from './worker-client.js';

const count = new Intl.NumberFormat('en');

/** Megabytes with one decimal, for the status line. */
function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Shows the reading pass: the progress bar, the status line and the problems with record and offset. */
export class StatusView {
  readonly #progress = byId<HTMLProgressElement>('progress');
  readonly #status = byId('status');
  readonly #problems = byId('problems');
  readonly #problemList = byId('problem-list');
  readonly #requestError = byId('request-error');
  #compression = '';

  /** Clears everything for a new file. */
  reset(name: string): void {
    this.say(`Reading ${name}…`);
  }

  /** Clears everything and says `message` on the status line (no file is read). */
  say(message: string): void {
    this.#progress.value = 0;
    this.#compression = '';
    this.#status.textContent = message;
    this.#problems.hidden = true;
    this.#problemList.replaceChildren();
    this.#requestError.hidden = true;
    this.#requestError.textContent = '';
  }

  /** Says that the worker could not answer a request of the page (`what`: which one). */
  requestFailed(what: string, message: string): void {
    this.#requestError.textContent = `Could not ${what}: ${message}`;
    this.#requestError.hidden = false;
  }

  /** Shows one event of the pass. */
  show(event: ScanEvent): void {
    if (event.type === 'compression') {
      this.#compression = event.compression === 'none' ? '' : ` (${event.compression})`;
    } else if (event.type === 'progress') {
      this.#progress.value = event.totalBytes === 0 ? 1 : event.bytesRead / event.totalBytes;
      this.#status.textContent = `Verifying${this.#compression}: ${megabytes(event.bytesRead)} of ${megabytes(event.totalBytes)}, ${counted(event.records, 'record')}`;
      this.#showProblems(event.problems, event.problems.length, []);
    } else if (event.type === 'done') {
      this.#progress.value = 1;
      const seconds = (event.elapsed / 1000).toFixed(2);
      const problems =
        event.problemCount === 0 ? 'every CRC verified' : counted(event.problemCount, 'problem');
      this.#status.textContent = `${counted(event.records, 'record')}${this.#compression}, ${problems} (${seconds} s)`;
      this.#status.dataset.done = 'true';
      this.#showProblems(event.problems, event.problemCount, event.lost);
    } else if (event.type === 'failed') {
      this.#status.textContent = `Cannot read this file: ${event.message}`;
      this.#status.dataset.done = 'true';
    }
  }

  #showProblems(problems: readonly Problem[], total: number, lost: readonly LostRange[]): void {
    if (total === 0) return;
    this.#problems.hidden = false;
    const items = problems.map((problem) => {
      const where = [
        problem.recordIndex === undefined ? undefined : `record ${problem.recordIndex}`,
        problem.byteOffset === undefined ? undefined : `byte ${problem.byteOffset}`,
      ].filter((part) => part !== undefined);
      return element(
        'li',
        'problem',
        element('strong', '', `${where.join(', ')}: `),
        `${problem.code}: ${problem.message}`,
      );
    });
    if (total > problems.length)
      items.push(element('li', 'muted', `… ${count.format(total - problems.length)} more`));
    for (const range of lost) {
      items.push(
        element(
          'li',
          'lost',
          `lost bytes ${range.start}–${range.end} (${range.end - range.start} bytes): ${range.reason}`,
        ),
      );
    }
    this.#problemList.replaceChildren(...items);
  }
}
