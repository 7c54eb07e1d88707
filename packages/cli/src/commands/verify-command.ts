import type { Command } from '../command.js';
import { READ_FLAGS, READ_FLAGS_HELP } from './shared-flags.js';

/** `tfpipe verify`: reads every record, checks every CRC and payload, lists every problem; `--repair OUT` salvages. */
export const verifyCommand: Command = {
  name: 'verify',
  summary: 'check every record, CRC and payload; exit 1 on a problem file; --repair OUT salvages',
  usage: `Usage: tfpipe verify FILE... [options]

Reads TFRecord files (paths or globs) to the end, checking the length CRC and data CRC of every record,
and parses every payload as a tf.train.Example (or as the manifest's payload type, or as --payload
says). Prints "ok" per good file; for a bad one, every problem in TensorFlow's words ("corrupted record
at byte N", "truncated record at byte N", "malformed Example at byte N (record 3)", N being the
record's offset in the file) and the byte ranges lost, and exits 1.

Options:
  --payload P           parse payloads as example or sequence-example (default: the manifest's payload
                        type, else example)
  --framing-only        check the framing and CRCs only, not the payloads
${READ_FLAGS_HELP}
  --repair OUT          write every record that verifies, from all FILEs in order, to the new file OUT
                        (compressed as its suffix says: .gz gzip, .zz zlib; written crash-safe) and print
                        each byte range lost; exits 1 if anything was lost, 0 if the input was clean
  --overwrite           with --repair, replace an existing OUT`,
  options: {
    ...READ_FLAGS,
    payload: { type: 'string' },
    'framing-only': { type: 'boolean' },
    repair: { type: 'string' },
    overwrite: { type: 'boolean' },
  },
  load: async () => (await import('./verify.js')).verifyFiles,
};
