// The streaming read: slices in order, with the next ones already being read while one is parsed.
import { describe, expect, it } from 'vitest';
import { sliceStream, type ByteSource } from './byte-source.js';

/** A source of `size` bytes (byte i = i % 251) that records the reads it was asked for. */
function recordingSource(size: number): ByteSource & { started: number[] } {
  const bytes = Uint8Array.from({ length: size }, (_, index) => index % 251);
  const started: number[] = [];
  return {
    name: 'test.tfrecord',
    size,
    started,
    read(start, end) {
      started.push(start);
      return Promise.resolve(bytes.slice(start, end));
    },
  };
}

async function drain(stream: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
  return chunks;
}

describe('sliceStream', () => {
  it('hands out the whole file in order, in slices, reporting the bytes read', async () => {
    const source = recordingSource(1000);
    const progress: number[] = [];
    const chunks = await drain(sliceStream(source, (read) => progress.push(read), 300, 2));
    expect(chunks.map((chunk) => chunk.length)).toEqual([300, 300, 300, 100]);
    expect(
      Buffer.concat(chunks).equals(Buffer.from(Uint8Array.from({ length: 1000 }, (_, i) => i % 251))),
    ).toBe(true);
    expect(progress).toEqual([300, 600, 900, 1000]);
  });

  it('reads ahead of its reader: the next slices are asked for before they are wanted', async () => {
    const source = recordingSource(10 * 100);
    const reader = sliceStream(source, () => undefined, 100, 2).getReader();
    await reader.read();
    // The first slice handed out, the next two already asked for.
    expect(source.started).toEqual([0, 100, 200]);
    await reader.cancel();
  });

  it('an empty file is an empty stream', async () => {
    expect(await drain(sliceStream(recordingSource(0), () => undefined))).toEqual([]);
  });
});
