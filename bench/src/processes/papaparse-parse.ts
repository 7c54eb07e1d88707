/** Baseline process for case d's CLI side: papaparse parsing the CSV file, rows counted, nothing else. */
import { createReadStream } from 'node:fs';
import Papa from 'papaparse';

const [path, expected] = process.argv.slice(2);
let rows = 0;
await new Promise<void>((resolve, reject) => {
  Papa.parse(createReadStream(path!), {
    step: () => {
      rows++;
    },
    complete: () => resolve(),
    error: (error: Error) => reject(error),
  });
});
// The header row is a row to papaparse without `header: true`.
if (rows - 1 !== Number(expected)) throw new Error(`papaparse read ${rows - 1} rows, expected ${expected}`);
