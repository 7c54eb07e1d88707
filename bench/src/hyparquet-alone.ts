/** Case f's baseline, in process and in a process of its own: hyparquet reading every row group into row objects. */
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';

/** Reads the Parquet file at `path` row group by row group, as hyparquet's users do. */
export async function readEveryRowGroup(path: string): Promise<void> {
  const file = await asyncBufferFromFile(path);
  const metadata = await parquetMetadataAsync(file);
  let rowStart = 0;
  for (const group of metadata.row_groups) {
    const rowEnd = rowStart + Number(group.num_rows);
    const rows = await parquetReadObjects({ file, metadata, compressors, rowStart, rowEnd });
    if (rows.length !== rowEnd - rowStart) throw new Error('short row group');
    rowStart = rowEnd;
  }
}
