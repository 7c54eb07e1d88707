import { resolve } from 'node:path';
import { TfpipeError, reportOf, type PayloadType } from '@tfpipe/core';
import {
  tfrecordSink,
  tfrecordSource,
  verifyTfrecord,
  type LostRegion,
  type TfrecordCompression,
} from '@tfpipe/sink-tfrecord';
import type { FlagValues } from '../command.js';
import { booleanFlag, choiceFlag, stringFlag } from '../flags.js';
import { writeLine, type CliIo } from '../io.js';
import { formatBytes } from '../preview.js';
import { printableName } from '../printable.js';
import { payloadTypeOf, readOptions } from './read-options.js';
import { inCwd, tfrecordFiles } from './tfrecord-files.js';

/** `tfpipe verify`: reads every record, checks every CRC and payload, lists every problem; `--repair OUT` salvages. */
export async function verifyFiles(
  values: FlagValues,
  positionals: readonly string[],
  io: CliIo,
): Promise<number> {
  const files = await tfrecordFiles(positionals, 'FILE to verify', 'verify', io);
  const options = readOptions(values);
  const repair = stringFlag(values, 'repair');
  if (repair !== undefined)
    return repairInto(files, inCwd(io, repair), booleanFlag(values, 'overwrite'), options, io);
  const payloadType = await verifyPayloadType(values, files[0]);
  let failed = 0;
  for (const file of files) {
    const result = await verifyTfrecord(file, { ...options, payloadType });
    if (result.ok) {
      await writeLine(
        io.stdout,
        `ok\t${result.records} records\t${formatBytes(result.bytes)}\t${printableName(file)}`,
      );
      continue;
    }
    failed++;
    for (const error of result.errors)
      await writeLine(io.stderr, `tfpipe verify: ${printableName(error.message)} [${error.code}]`);
    if (result.problems > result.errors.length) {
      await writeLine(
        io.stderr,
        `tfpipe verify: … and ${result.problems - result.errors.length} more problems`,
      );
    }
    await writeLine(
      io.stdout,
      `FAILED\t${result.records} good records, ${result.problems} problems, ${result.lostBytes} bytes lost\t${printableName(file)}`,
    );
  }
  return failed === 0 ? 0 : 1;
}

/** What verify parses payloads as: `--framing-only`, `--payload`, `--sequence`, the manifest, Example. */
async function verifyPayloadType(
  values: FlagValues,
  firstFile: string | undefined,
): Promise<PayloadType | 'none'> {
  const framingOnly = booleanFlag(values, 'framing-only');
  const payload = choiceFlag(values, 'payload', ['example', 'sequence-example'] as const);
  if (framingOnly && payload !== undefined) {
    throw new TfpipeError('INVALID_OPTION', '--framing-only and --payload contradict each other', {
      stage: 'verify',
      fatal: true,
    });
  }
  if (framingOnly) return 'none';
  if (payload !== undefined) return payload === 'example' ? 'Example' : 'SequenceExample';
  return payloadTypeOf(values, firstFile);
}

/** The output compression `OUT`'s suffix asks for. */
function compressionOf(out: string): TfrecordCompression {
  if (out.endsWith('.gz')) return 'gzip';
  if (out.endsWith('.zz') || out.endsWith('.zlib')) return 'zlib';
  return 'none';
}

/**
 * Copies every record that verifies to `out` through `tfrecordSink` (a temporary renamed at the end, so
 * a crash never leaves a torn OUT) and prints each lost byte range.
 */
async function repairInto(
  files: readonly string[],
  out: string,
  overwrite: boolean,
  options: ReturnType<typeof readOptions>,
  io: CliIo,
): Promise<number> {
  if (files.some((file) => resolve(file) === resolve(out))) {
    throw new TfpipeError('INVALID_OPTION', '--repair OUT must not be one of the files read', {
      stage: 'verify',
      fatal: true,
      position: { file: out },
    });
  }
  const source = tfrecordSource({ ...options, paths: [...files], onError: 'skip' });
  const sink = tfrecordSink({ path: out, compression: compressionOf(out), overwrite });
  await source
    .pipeThrough(new TransformStream({ transform: (record, controller) => controller.enqueue(record.data) }))
    .pipeTo(sink);
  const report = reportOf(source);
  const details = report?.details as { lost: LostRegion[]; lostBytes: number; lostRegions: number };
  for (const region of details.lost) {
    const records = region.records === undefined ? 'unknown records' : `${region.records} record(s)`;
    await writeLine(
      io.stderr,
      `tfpipe verify: lost bytes ${region.start}-${region.end} (${region.bytes} bytes, ${records}) of ${printableName(region.file)}: ${region.reason} [${region.code}]`,
    );
  }
  if (details.lostRegions > details.lost.length)
    await writeLine(
      io.stderr,
      `tfpipe verify: … and ${details.lostRegions - details.lost.length} more lost regions`,
    );
  const written = reportOf(sink)?.records ?? report?.records ?? 0;
  await writeLine(
    io.stdout,
    `${details.lostRegions === 0 ? 'ok' : 'REPAIRED'}\t${written} records written to ${printableName(out)}\t${details.lostRegions} regions, ${details.lostBytes} bytes lost`,
  );
  return details.lostRegions === 0 ? 0 : 1;
}
