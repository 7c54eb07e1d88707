import { parquetWriteFile } from 'hyparquet-writer';
import { parquetReadObjects } from 'hyparquet';
import { asyncBufferFromFile } from 'hyparquet';
parquetWriteFile({ filename: '/tmp/wide/negzero.parquet', columnData: [{ name: 'x', data: [-0, 0, 0, -0], type: 'DOUBLE' }] });
const rows = await parquetReadObjects({ file: await asyncBufferFromFile('/tmp/wide/negzero.parquet') });
console.log(rows.map((row) => Object.is(row.x, -0) ? '-0' : String(row.x)));
parquetWriteFile({ filename: '/tmp/wide/negzero2.parquet', columnData: [{ name: 'x', data: [0, -0, 1, 2], type: 'DOUBLE' }] });
const rows2 = await parquetReadObjects({ file: await asyncBufferFromFile('/tmp/wide/negzero2.parquet') });
console.log(rows2.map((row) => Object.is(row.x, -0) ? '-0' : String(row.x)));
