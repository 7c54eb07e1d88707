import { attachReport, RecordErrorPolicy, withPosition } from '@tfpipe/core/plugin';
import { lendingSwitch, withCrc32c, withRelease } from '@tfpipe/core/internal';
import { TfpipeError } from '@tfpipe/core';
import type { Position, StageReport } from '@tfpipe/core';
import type { Reporter } from '@tfpipe/core/plugin';
import { readClassFolders } from './inputs/class-folder.js';
import { emptyInputError } from './inputs/empty-input.js';
import { listingDigest, selectRanges } from './inputs/image-listing.js';
import type { ImageInput, ImageTask, LabelMap } from './inputs/image-task.js';
import { buildImageRecord, type ImageRecord } from './image-record.js';
import {
  resolveImageOptions,
  type ImageSourceOptions,
  type ResolvedImageOptions,
} from './image-source-options.js';
import { loadSharp } from './load-sharp.js';
import { processImage, type ProcessedImage } from './processing/process-image.js';
import { readTaskFile } from './processing/read-task-file.js';
import { AdaptiveReads } from './processing/adaptive-reads.js';
import { PixelBudget } from './processing/pixel-budget.js';
import type { ImageFile } from './processing/read-image-file.js';

/** The `details` of the image source's report. */
export interface ImageSourceDetails {
  /** `folder`, `list`, `coco` or `voc`. */
  readonly input: string;
  /** `keep` (original bytes) or `decode`. */
  readonly mode: 'keep' | 'decode';
  /** Classes by id, when the input defines them (write it with `writeLabelMap`). */
  readonly labelMap?: LabelMap;
  /** Images listed by the input. */
  readonly images: number;
  /** Annotated objects dropped under `invalidBoxes: 'drop'`. */
  readonly droppedObjects: number;
  /**
   * Whether the run lent kept images' buffers to the sink (see the README, *Lending*): only when
   * every stage passes releases on and the sink releases records.
   */
  readonly lending: boolean;
}

/**
 * A stream of image records from a class-folder tree, a list file, a COCO file or Pascal VOC XML.
 * Up to `concurrency` images are read and processed at once, at most twice that many started ahead
 * of what the consumer has pulled, and records come out in input order: an image that finishes frees
 * its place at once, so a slow one does not hold up the work on the images after it. When images
 * are decoded, the next `concurrency` files are read meanwhile, so that a freed place starts sharp
 * at once (at most that many ahead; a file that cannot be read is reported in its turn). Annotation
 * files and directory listings are read (whole) on the first pull; a missing or unreadable input is a
 * fatal error, a bad image or annotation a record error under `onError`.
 *
 * The stream reports `{ stage: 'imageSource', records, skipped, skippedErrors, bytes, details }`,
 * `details` being {@link ImageSourceDetails} (with the label map).
 *
 * Run by core's `pipeline()`/`run()` with stages and a sink that release records (`imageExamples`,
 * `tfrecordSink`), kept images' memory is lent: once the sink has copied a record, its
 * `image/encoded` goes back to the reader thread for a later file (and reads as empty). Read any
 * other way, records are yours to keep.
 *
 * @throws TfpipeError `INVALID_OPTION` at once for bad options
 */
export function imageSource(options: ImageSourceOptions): ReadableStream<ImageRecord> & Reporter {
  const resolved = resolveImageOptions(options);
  const policy = new RecordErrorPolicy(options);
  let input: (ImageInput & { readonly recordIndexes?: readonly number[] }) | undefined;
  // Started and not yet handed out, in input order: at most `concurrency` being processed, and at
  // most twice that started, so that one slow image holds up neither the others nor the next ones.
  const inFlight: Promise<ProcessedImage>[] = [];
  const window = 2 * resolved.concurrency;
  let running = 0;
  let next = 0; // index of the next task to start
  let delivered = 0; // tasks handed out or skipped
  let records = 0;
  let bytesRead = 0;
  let droppedObjects = 0;
  /** Cancelled by the consumer, or failed: no more images start. */
  let stopped = false;
  /** Set by a run whose stages and sink release records (core's `lendIfSafe`): kept bytes are lent. */
  let lending = false;

  // Under `ranges`, a task's place in the whole input's order.
  const positionOf = (task: ImageTask, index: number): Position => ({
    file: task.path,
    recordIndex: input?.recordIndexes?.[index] ?? index,
    ...(task.annotation === undefined ? {} : { annotation: task.annotation }),
    ...(task.line === undefined ? {} : { line: task.line }),
  });
  // Decode mode: the files of the next `concurrency` images are read while sharp works on the
  // current ones, so that a freed place starts sharp at once rather than after a read.
  const readAhead = new Map<number, Promise<ImageFile>>();
  // Files to decode are read on the main thread until one read is slow (see AdaptiveReads).
  const here = resolved.decode ? new AdaptiveReads() : undefined;
  // The whole run's decodes share maxPixels: concurrency alone would let large images add up.
  const budget = new PixelBudget(resolved.maxPixels);
  const dropReadAhead = (): void => {
    for (const read of readAhead.values())
      read.then(
        (file) => file.giveBack?.(),
        () => undefined,
      );
    readAhead.clear();
  };
  const start = (tasks: readonly ImageTask[]): void => {
    while (!stopped && next < tasks.length && running < resolved.concurrency && inFlight.length < window) {
      const task = tasks[next]!;
      const position = positionOf(task, next);
      // Lent bytes come with their CRC-32C, which the sink then need not compute (see below).
      const read = readAhead.get(next) ?? readTaskFile(task, resolved, position, lending, here);
      readAhead.delete(next);
      const promise = processImage(task, resolved, position, read, budget);
      running++;
      // A finished image frees its slot at once, not when its turn to be handed out comes. (Its
      // rejection is handled then; this also keeps it from going unhandled meanwhile.)
      const settled = (): void => {
        running--;
        start(tasks);
      };
      promise.then(settled, settled);
      inFlight.push(promise);
      next++;
    }
    if (!resolved.decode || stopped || readAheadQueued) return;
    // After this turn's promise callbacks, which hand the images just started to sharp: a read made
    // here on the main thread would hold them up.
    readAheadQueued = true;
    setImmediate(() => {
      readAheadQueued = false;
      if (!stopped) readAheadFrom(tasks);
    });
  };
  let readAheadQueued = false;
  const readAheadFrom = (tasks: readonly ImageTask[]): void => {
    for (let index = next; index < Math.min(tasks.length, next + resolved.concurrency); index++) {
      if (readAhead.has(index)) continue;
      const read = readTaskFile(tasks[index]!, resolved, positionOf(tasks[index]!, index), false, here);
      // Its failure is the image's, reported in its turn (processImage awaits it then).
      read.catch(() => undefined);
      readAhead.set(index, read);
    }
  };

  const stream = new ReadableStream<ImageRecord>(
    {
      async pull(controller) {
        const first = input === undefined;
        input ??= await readInput(resolved);
        const tasks = input.tasks;
        while (!stopped) {
          start(tasks);
          // sharp loads (~0.1 s of CPU) as soon as the first files are read (on this thread), or while
          // a reader thread that has their reads starts. A failure is the first image's.
          if (first && resolved.decode && tasks.length > 0) loadSharp().catch(() => undefined);
          // It stays in `inFlight` until it has settled: it counts against the window meanwhile.
          const head = inFlight[0];
          if (head === undefined) {
            controller.close();
            return;
          }
          const task = tasks[delivered]!;
          const recordIndex = delivered++;
          try {
            // Off the list once settled, whatever follows; a failure is handled below.
            const image = await head.finally(() => void inFlight.shift());
            // The next image starts reading before this one becomes a row.
            start(tasks);
            bytesRead += image.bytesRead;
            droppedObjects += image.droppedObjects;
            const row = withPosition(
              buildImageRecord(task, image, resolved.keys),
              positionOf(task, recordIndex),
            );
            // Lent: the sink hands the kept bytes back to the reader thread once it has copied them.
            // Only then is the CRC the reader computed handed on (core's withCrc32c): every stage up
            // to the sink passes records on untouched, so the bytes the sink frames are the ones read.
            if (lending && image.giveBack !== undefined) withRelease(row, image.giveBack);
            if (lending && image.crc32c !== undefined) withCrc32c(image.encoded, image.crc32c);
            records++;
            controller.enqueue(row);
            return;
          } catch (error) {
            try {
              policy.handle(toTfpipeError(error, positionOf(task, recordIndex)));
            } catch (fatal) {
              // The stream fails with it: no more images start.
              stopped = true;
              dropReadAhead();
              throw fatal;
            }
          }
        }
      },
      cancel() {
        stopped = true;
        inFlight.length = 0;
        dropReadAhead();
      },
    },
    { highWaterMark: 0 },
  );

  const report = (): StageReport => {
    const details: ImageSourceDetails = {
      input: resolved.input,
      mode: resolved.decode ? 'decode' : 'keep',
      images: input?.tasks.length ?? 0,
      droppedObjects: droppedObjects + (input?.droppedObjects ?? 0),
      lending,
      ...(input?.labelMap === undefined ? {} : { labelMap: input.labelMap }),
    };
    return {
      stage: 'imageSource',
      records,
      skipped: policy.skipped,
      skippedErrors: policy.errors,
      bytes: bytesRead,
      details: details as unknown as Record<string, unknown>,
    };
  };
  return lendingSwitch(attachReport(stream, report), () => {
    lending = true;
  });
}

/** The input's tasks, refused when empty (unless `allowEmpty`). */
async function readListing(options: ResolvedImageOptions): Promise<ImageInput> {
  const input = await readTasks(options);
  // An empty output with exit code 0 would look like success (class folders say what they found).
  if (input.tasks.length === 0 && !options.allowEmpty)
    throw emptyInputError(`the ${options.input} input`, options.inputPath);
  return input;
}

async function readInput(
  options: ResolvedImageOptions,
): Promise<ImageInput & { readonly recordIndexes?: readonly number[] }> {
  const input = await readListing(options);
  if (options.listingSha256 !== undefined && listingDigest(input) !== options.listingSha256) {
    throw new TfpipeError('INPUT_CHANGED', `the ${options.input} input lists other images than planned`, {
      stage: 'imageSource',
      fatal: true,
      position: { file: options.inputPath },
      reason: 'an image, class, label or annotation was added, removed or changed: plan again',
    });
  }
  return options.ranges === undefined ? input : selectRanges(input, options.ranges, options.inputPath);
}

/**
 * What an image input lists, without reading an image: the number of images, the label map and the
 * listing's SHA-256 (pass it as `listingSha256` to refuse a changed input later). Plans cut image
 * inputs with it; `ranges` and `listingSha256` are ignored here.
 *
 * @throws TfpipeError `INVALID_OPTION`, and the input's fatal errors (`INPUT_NOT_FOUND`, …)
 */
export async function imageListing(
  options: ImageSourceOptions,
): Promise<{ readonly images: number; readonly labelMap?: LabelMap; readonly sha256: string }> {
  const { ranges: _ranges, listingSha256: _listingSha256, ...whole } = options;
  const input = await readListing(resolveImageOptions(whole));
  return {
    images: input.tasks.length,
    ...(input.labelMap === undefined ? {} : { labelMap: input.labelMap }),
    sha256: listingDigest(input),
  };
}

// Class folders are read by code loaded with the source; a list, COCO and VOC input each load their
// reader (and its parser) only when used.
async function readTasks(options: ResolvedImageOptions): Promise<ImageInput> {
  const { classNames, labelBase } = options;
  switch (options.input) {
    case 'folder':
      return readClassFolders(options.inputPath, {
        extensions: options.extensions,
        classNames,
        labelBase,
        exclude: options.exclude,
        allowEmpty: options.allowEmpty,
      });
    case 'list': {
      const { readImageList } = await import('./inputs/image-list.js');
      return readImageList(options.inputPath, { root: options.images, classNames, labelBase });
    }
    case 'coco': {
      const { readCoco } = await import('./inputs/coco.js');
      return readCoco(options.inputPath, options.images);
    }
    case 'voc': {
      const { readPascalVoc } = await import('./inputs/pascal-voc.js');
      return readPascalVoc(options.inputPath, {
        images: options.images,
        classNames,
        labelBase,
        ignoreDifficult: options.ignoreDifficult,
      });
    }
  }
}

function toTfpipeError(error: unknown, position: Position): unknown {
  if (TfpipeError.is(error)) return error.withPosition(position);
  // A failure we did not foresee is still reported with where it happened, but never skipped.
  return new TfpipeError('INTERNAL', 'unexpected error while loading an image', {
    stage: 'imageSource',
    position,
    cause: error,
    fatal: true,
    reason: error instanceof Error ? error.message : String(error),
  });
}
