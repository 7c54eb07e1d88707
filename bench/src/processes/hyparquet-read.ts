/** Baseline process for case f's CLI side: hyparquet reading every row group of the file into row objects. */
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';

const [path] = process.argv.slice(2);
const file = await asyncBufferFromFile(path!);
const metadata = await parquetMetadataAsync(file);
let rowStart = 0;
for (const group of metadata.row_groups) {
  const rowEnd = rowStart + Number(group.num_rows);
  const rows = await parquetReadObjects({ file, metadata, compressors, rowStart, rowEnd });
  if (rows.length !== rowEnd - rowStart) throw new Error('short row group');
  rowStart = rowEnd;
}
