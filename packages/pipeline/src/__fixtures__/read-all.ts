// Test helper: every record of some TFRecord files, in order.
import type { Example } from '@tfpipe/core';
import { readExamples } from '@tfpipe/sink-tfrecord';

/** Every Example of `files`, in file then record order. */
export async function readAll(files: readonly string[]): Promise<Example[]> {
  const examples: Example[] = [];
  for await (const example of readExamples([...files])) examples.push(example);
  return examples;
}
