import { defineSourcePlugin } from '@tfpipe/core/plugin';
import type { Example, SequenceExample } from '@tfpipe/core';
import { z } from '@tfpipe/node-utils/options';
import { jsonLinesSource } from './jsonl-source.js';

/** The options of the JSON Lines source in a config file. */
export const jsonLinesOptionsSchema = z.strictObject({
  path: z.string({ error: 'expected a string' }).min(1, { error: 'expected a non-empty string' }),
  payloadType: z
    .enum(['Example', 'SequenceExample'], { error: 'expected "Example" or "SequenceExample"' })
    .optional(),
  maxLineBytes: z
    .int({ error: 'expected a positive integer (bytes)' })
    .min(1, { error: 'expected a positive integer (bytes)' })
    .optional(),
});

/**
 * JSON Lines of Examples in protobuf's JSON form (`tfpipe inspect --json` output) as a config-file
 * source, built into the CLI: `{ "plugin": "jsonl", "options": { "path": "records.jsonl" } }`.
 */
export const jsonLinesPlugin = defineSourcePlugin<
  z.infer<typeof jsonLinesOptionsSchema>,
  Example | SequenceExample
>({
  kind: 'source',
  name: '@tfpipe/cli/jsonl',
  description: 'JSON Lines of Examples in protobuf JSON form',
  options: jsonLinesOptionsSchema,
  output: 'examples',
  create(options, context) {
    const payloadType = options.payloadType ?? 'Example';
    const readable = jsonLinesSource({
      path: context.resolvePath(options.path),
      payloadType,
      onError: context.onError,
      ...(options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes }),
    });
    return { readable, payloadType };
  },
});
