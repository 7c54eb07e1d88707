import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, tfpipe, tfpipeProcess } from './__fixtures__/run-cli.js';

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-cli-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('tfpipe count, inspect, verify and schema on files TensorFlow wrote', () => {
  it('counts the corpus files with their published record counts', async () => {
    const result = await tfpipe(['count', join(CORPUS, '*')]);
    expect(result.code).toBe(0);
    const counts = Object.fromEntries(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => line.split('\t'))
        .map(([count, file]) => [file!.split('/').pop(), Number(count)]),
    );
    expect(counts).toMatchObject({
      'pwnall_singles.tfrecords': 3,
      'raccoon_test_jpeg.record': 40,
      'tfx_external_tfrecord_sequence.tfrecord.gz': 15000,
      'tfx_mnist_floats.tfrecord': 1000,
      'tfx_penguin_train.tfrecord.gz': 234,
      'tfx_taxi_csvgen_eval_00000.tfrecord.gz': 424,
      total: 16701,
    });
  });

  it('inspect names images and shows text values of the raccoon detection file', async () => {
    const result = await tfpipe(['inspect', '--limit', '1', join(CORPUS, 'raccoon_test_jpeg.record')]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/image\/encoded\s+bytes\[1\]\s+<jpeg image, \d+ KB>/);
    expect(result.stdout).toMatch(/image\/object\/class\/text\s+bytes\[1\]\s+"raccoon"/);
    expect(result.stdout).toMatch(/image\/height\s+int64\[1\]\s+\d+/);
    // float32 values as protobuf's JSON printer writes them (shortest digits that read back the same).
    expect(result.stdout).toMatch(/image\/object\/bbox\/xmax\s+float\[1\]\s+0\.69170576\n/);
  });

  it('inspect --json prints protobuf JSON form that parses back to the same records', async () => {
    const result = await tfpipe(['inspect', '--json', join(CORPUS, 'pwnall_singles.tfrecords')]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[0]!)).toEqual({
      features: { feature: { int_feature: { int64List: { value: ['42'] } } } },
    });
  });

  it('schema --format tf gives FixedLenFeature specs for the penguin columns', async () => {
    const result = await tfpipe(['schema', '--format', 'tf', join(CORPUS, 'tfx_penguin_train.tfrecord.gz')]);
    expect(result.code).toBe(0);
    for (const line of [
      '"body_mass_g": tf.io.FixedLenFeature([], tf.float32),',
      '"culmen_depth_mm": tf.io.FixedLenFeature([], tf.float32),',
      '"species": tf.io.FixedLenFeature([], tf.int64),',
      'compression_type="GZIP"',
    ]) {
      expect(result.stdout).toContain(line);
    }
  });

  it('verify exits 1 and names the byte offset of a corrupted record', async () => {
    const bytes = new Uint8Array(await readFile(join(CORPUS, 'pwnall_singles.tfrecords')));
    const first = Number(new DataView(bytes.buffer).getBigUint64(0, true));
    const secondRecord = 16 + first;
    bytes[secondRecord + 12] = bytes[secondRecord + 12]! ^ 0x01; // first data byte of record 1
    const file = join(directory, 'corrupt.tfrecord');
    await writeFile(file, bytes);
    const result = await tfpipe(['verify', file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `corrupted record at byte ${secondRecord} (record 1) of ${file}: data CRC mismatch`,
    );
    expect(result.stdout).toMatch(/^FAILED\t2 good records, 1 problems/m);
  });

  it('verify says ok for a good file', async () => {
    const result = await tfpipe(['verify', join(CORPUS, 'tfx_mnist_floats.tfrecord')]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ok\t1000 records/);
  });

  // These two run the built executable: the exit codes a shell sees.
  it('reports a missing file in one line and exits non-zero', async () => {
    const result = await tfpipeProcess(['count', join(directory, 'nope.tfrecord')]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('nope.tfrecord');
  });

  it('rejects an unknown command and an unknown flag with exit 2', async () => {
    expect((await tfpipeProcess(['frobnicate'])).code).toBe(2);
    const result = await tfpipeProcess(['count', '--frob', 'x']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--frob');
  });
});
