/** Baseline process for case f's CLI side: hyparquet reading every row group of the file into row objects. */
import { readEveryRowGroup } from '../hyparquet-alone.js';

await readEveryRowGroup(process.argv[2]!);
