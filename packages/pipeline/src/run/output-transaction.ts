import { lstat, mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { TfpipeError, type DeferredOutput } from '@tfpipe/core';
import { releaseTemporary, removeStaleTemporaries, temporaryPath } from '@tfpipe/sink-tfrecord';

const STAGE = 'run';
/** The staging directory's name stem: `.side-files.tfpipe-tmp-<pid>-<host><random>`. */
const STAGING_STEM = 'side-files';

/** A side file written into a staging directory, renamed to `final` at commit. */
function stagedFile(staged: string, final: string): DeferredOutput {
  return {
    async check() {
      const info = await lstat(final).catch(() => undefined);
      if (info !== undefined && !info.isFile()) {
        throw new TfpipeError('OUTPUT_EXISTS', 'an output name is taken by a directory or a special file', {
          stage: STAGE,
          fatal: true,
          position: { file: final },
        });
      }
    },
    async rename() {
      try {
        await rename(staged, final);
      } catch (error) {
        throw new TfpipeError('IO', 'cannot put a side file in place', {
          stage: STAGE,
          fatal: true,
          cause: error,
          position: { file: final },
          reason: (error as Error).message,
        });
      }
    },
    removeReplaced: () => Promise.resolve([]),
    // The staging directory goes as a whole.
    discard: () => Promise.resolve(),
  };
}

/**
 * Everything a run writes, put in place together once all of it is written: the sinks' shards
 * (handed over through the sink context's `deferOutput`) and the side files (reader specs, label
 * maps, vocabularies) written into a hidden staging directory. {@link commit} checks every final
 * name, renames everything, and only then removes the old output it replaces; {@link discard}
 * deletes it all, so a failed run leaves nothing under a final name.
 */
export class OutputTransaction {
  readonly #outputs: DeferredOutput[] = [];
  readonly #staging: string[] = [];
  /** The sinks' `deferOutput`. */
  readonly defer = (output: DeferredOutput): void => {
    this.#outputs.push(output);
  };

  /**
   * A fresh hidden directory inside `directory` (created if missing) for side files, named as the
   * sinks name temporaries, so that a later run on this host removes it if this one is killed.
   */
  async stagingDirectory(directory: string): Promise<string> {
    await mkdir(directory, { recursive: true });
    await removeStaleTemporaries(directory, STAGING_STEM);
    const staging = temporaryPath(directory, STAGING_STEM);
    await mkdir(staging);
    this.#staging.push(staging);
    return staging;
  }

  /** Renames the files `names` of `staging` into `directory` at commit. */
  stage(staging: string, directory: string, names: readonly string[]): void {
    for (const name of names) this.#outputs.push(stagedFile(join(staging, name), join(directory, name)));
  }

  /** Puts everything in place, then removes what it replaces. Resolves with the removed paths. */
  async commit(): Promise<string[]> {
    for (const output of this.#outputs) await output.check();
    for (const output of this.#outputs) await output.rename();
    const removed: string[] = [];
    for (const output of this.#outputs) removed.push(...(await output.removeReplaced()));
    await this.#removeStaging();
    return removed;
  }

  /** Deletes every temporary and staged file. Never throws. */
  async discard(): Promise<void> {
    for (const output of this.#outputs) await output.discard();
    await this.#removeStaging();
  }

  async #removeStaging(): Promise<void> {
    // Only directories this object created, after their files were renamed out or are to be dropped.
    for (const staging of this.#staging.splice(0)) {
      await rm(staging, { recursive: true, force: true });
      releaseTemporary(staging);
    }
  }
}
