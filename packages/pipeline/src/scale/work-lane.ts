import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Hands out the tasks `0 … count - 1` of one run, in that order, each to exactly one lane, with no
 * round trip through the parent process: a lane takes a task by creating the task's entry in a
 * directory every lane of the run shares, which fails for every lane but the first (`mkdir` is
 * atomic). Without a directory, this one claimer takes them all. A lane that asked its parent for
 * the next task waited until the parent's own work let its event loop turn.
 */
export class TaskClaims {
  readonly #directory: string | undefined;
  readonly #count: number;
  /** Every task before this one is taken (by this lane or another). */
  #next = 0;

  /**
   * @param directory - the directory the lanes share, empty at the start (its entries are the tasks taken)
   * @param count - tasks in all
   */
  constructor(directory: string | undefined, count: number) {
    this.#directory = directory;
    this.#count = count;
  }

  /** Takes the first task no lane has taken; undefined when none is left. @throws the directory's errors */
  take(): number | undefined {
    while (this.#next < this.#count) {
      const id = this.#next++;
      if (this.#directory === undefined) return id;
      try {
        mkdirSync(join(this.#directory, String(id)));
        return id;
      } catch (error) {
        if ((error as { code?: string }).code !== 'EEXIST') throw error;
      }
    }
    return undefined;
  }

  /**
   * Takes every task left, so that no lane starts another (after a failure). Never throws: a
   * directory that fails here fails every other lane's next take too.
   */
  takeAll(): void {
    try {
      while (this.take() !== undefined);
    } catch {
      this.#next = this.#count;
    }
  }
}

/**
 * One task of a lane: resolves when the task is done (its output committed), and calls `inputRead`
 * once it has read all its input (what is left is writing out, syncing and committing). `signal`
 * aborts when the lane's other task failed.
 */
export type LaneWork = (id: number, inputRead: () => void, signal: AbortSignal) => Promise<void>;

/**
 * Works the tasks `claims` hands this lane, in turn, except that the next task starts as soon as
 * the current one has read its input: the current one's last writes, syncs, renames and commit
 * marker then overlap the next one's reading instead of leaving the lane idle. At most two tasks are
 * under way (the next starts only once the one before the current has ended). After a task fails
 * the lane's other task is aborted; after a failure, or once `stopped()` says so, the lane takes no
 * more. The first failure is thrown once every task it started has ended.
 */
export async function workLane(
  claims: TaskClaims,
  work: LaneWork,
  stopped: () => boolean = () => false,
): Promise<void> {
  let failure: { error: unknown } | undefined;
  let previous: Promise<void> = Promise.resolve();
  const aborts = new Set<AbortController>();
  try {
    while (failure === undefined && !stopped()) {
      const id = claims.take();
      if (id === undefined) break;
      let inputRead!: () => void;
      const read = new Promise<void>((resolve) => (inputRead = resolve));
      const abort = new AbortController();
      aborts.add(abort);
      const task = Promise.resolve()
        .then(() => work(id, inputRead, abort.signal))
        .catch((error: unknown) => {
          if (failure !== undefined) return;
          failure = { error };
          // The lane's other task stops too (it removes its temporaries): the run fails anyway.
          for (const other of aborts) if (other !== abort) other.abort(error);
        })
        .finally(() => aborts.delete(abort));
      await Promise.race([read, task]);
      await previous;
      previous = task;
    }
  } finally {
    await previous;
  }
  if (failure !== undefined) throw failure.error;
}
