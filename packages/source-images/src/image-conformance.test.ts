// The core source conformance suite (empty input, ordering, backpressure, cancellation, errors with
// code and position), run on imageSource over class folders written here.
import { mkdtempSync, rmSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { testSource } from '@tfpipe/core/testing';
import { afterAll } from 'vitest';
import { put, solid, value } from './__fixtures__/make-images.js';
import { imageSource } from './image-source.js';
import type { ImageRecord } from './image-record.js';

const directory = mkdtempSync(path.join(os.tmpdir(), 'tfpipe-images-conformance-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
const folder = (name: string): string => path.join(directory, name);

const png = await solid(2, 2, 3, 'png');
const ORDERED = ['a/0.png', 'a/1.png', 'b/0.png', 'b/1.png', 'c/0.png'];
await put(folder('empty'), 'cat/.hidden', 'x');
for (const name of ORDERED) await put(folder('ordered'), name, png);
for (let index = 0; index < 200; index++)
  await put(folder('large'), `cat/${String(index).padStart(3, '0')}.png`, png);
await put(folder('bad'), 'cat/0.png', png);
// A JPEG frame header that ends before its components: IMAGE_DECODE.
const corrupt = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xc0, 0, 3]),
  Buffer.alloc(40),
  Buffer.from([0xff, 0xd9]),
]);
const badFile = await put(folder('bad'), 'cat/1.jpg', corrupt);

testSource<string, ImageRecord>({
  name: 'imageSource',
  // Without allowEmpty an empty folder is an error (see image-hostile.test.ts).
  create: (name) => imageSource({ folder: folder(name), allowEmpty: name === 'empty' }),
  fixtures: {
    empty: 'empty',
    ordered: {
      input: 'ordered',
      expectedCount: ORDERED.length,
      keyOf: (row) => value(row['image/filename']),
      expectedKeys: ORDERED,
    },
    large: { input: 'large', rows: 200 },
    bad: {
      input: 'bad',
      expectedCode: 'IMAGE_DECODE',
      positionKeys: ['file', 'recordIndex'],
      expectedPosition: { file: badFile, recordIndex: 1 },
    },
  },
  // images in flight (the core count) plus the stream's queue
  readAhead: 16,
  openHandles: () => readdir('/proc/self/fd').then((fds) => fds.length),
});
