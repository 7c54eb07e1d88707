import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { encodeExample, encodeSequenceExample, example, int64, sequenceExample } from '@tfpipe/core';
import { countRecords } from '@tfpipe/sink-tfrecord';
import { frameRecord } from '@tfpipe/sink-tfrecord/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tfpipe } from './__fixtures__/run-cli.js';

let directory: string;
/** Six records; record 3's payload is not an Example (a length running past its end). */
let badThird: string;
/** Byte offset of record 3 in `badThird`. */
let thirdOffset: number;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-verify-'));
  const frames = Array.from({ length: 6 }, (_, index) =>
    frameRecord(
      index === 3 ? Uint8Array.of(0x0a, 0x05, 0x0a, 0x03) : encodeExample(example({ id: int64(index) })),
    ),
  );
  thirdOffset = frames.slice(0, 3).reduce((sum, frame) => sum + frame.length, 0);
  badThird = join(directory, 'bad-third.tfrecord');
  await writeFile(badThird, Buffer.concat(frames));
});
afterAll(() => rm(directory, { recursive: true, force: true }));

describe('tfpipe verify parses every payload', () => {
  it('fails a file whose record 3 is not an Example, naming its file offset and the payload offset', async () => {
    const result = await tfpipe(['verify', badThird]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `tfpipe verify: malformed Example at byte ${thirdOffset} (record 3) of ${badThird}: ` +
        'length 5 runs past the end of its message (2 bytes left) at payload byte 1 [PROTO_DECODE]\n',
    );
    expect(result.stdout).toBe(`FAILED\t5 good records, 1 problems, 0 bytes lost\t${badThird}\n`);
  });

  it('--framing-only checks the framing and CRCs only, as before', async () => {
    const result = await tfpipe(['verify', '--framing-only', badThird]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^ok\t6 records\t/);
  });

  it('--payload sequence-example parses SequenceExamples, and so does a manifest that says so', async () => {
    const sequences = join(directory, 'sequences.tfrecord');
    const record = sequenceExample({ length: int64(2) }, { tokens: [int64(1), int64(2)] });
    await writeFile(sequences, Buffer.concat([frameRecord(encodeSequenceExample(record))]));
    expect((await tfpipe(['verify', '--payload', 'sequence-example', sequences])).code).toBe(0);
    expect((await tfpipe(['verify', '--payload', 'sequence-example', badThird])).stderr).toContain(
      `malformed SequenceExample at byte ${thirdOffset} (record 3)`,
    );
    await writeFile(
      `${badThird}.manifest.json`,
      JSON.stringify({
        format: 'tfpipe-tfrecord-manifest',
        version: 1,
        payloadType: 'SequenceExample',
        shards: [],
      }),
    );
    try {
      expect((await tfpipe(['verify', badThird])).stderr).toContain('malformed SequenceExample at byte');
    } finally {
      await rm(`${badThird}.manifest.json`);
    }
  });

  it('refuses --framing-only with --payload', async () => {
    const result = await tfpipe(['verify', '--framing-only', '--payload', 'example', badThird]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--framing-only and --payload contradict each other');
  });

  it('inspect names the same file offset for the same malformed record', async () => {
    const result = await tfpipe(['inspect', badThird]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`malformed Example at byte ${thirdOffset} (record 3) of ${badThird}`);
  });
});

describe('tfpipe verify --repair on gzip with trailing junk', () => {
  it('writes all good records, reports the exact junk, and the output verifies', async () => {
    for (const count of [2, 20_000]) {
      const frames = Array.from({ length: count }, (_, index) =>
        frameRecord(encodeExample(example({ id: int64(index) }))),
      );
      const gz = gzipSync(Buffer.concat(frames));
      const input = join(directory, `junk-${count}.tfrecord.gz`);
      await writeFile(input, Buffer.concat([gz, Buffer.from('0123456789abcdef')]));
      const out = join(directory, `repaired-${count}.tfrecord`);
      const result = await tfpipe(['verify', '--repair', out, input]);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe(`REPAIRED\t${count} records written to ${out}\t1 regions, 16 bytes lost\n`);
      expect(result.stderr).toContain(
        `lost bytes ${gz.length}-${gz.length + 16} (16 bytes, unknown records)`,
      );
      expect(await countRecords(out)).toBe(count);
      expect((await tfpipe(['verify', out])).code).toBe(0);
    }
  }, 30_000);
});
