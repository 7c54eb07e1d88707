import { parquetWriteFile } from 'hyparquet-writer';
import { parquetReadObjects, asyncBufferFromFile } from 'hyparquet';
parquetWriteFile({ filename: '/tmp/wide/negzero3.parquet', columnData: [{ name: 'x', data: [-0, 0, 0, -0], type: 'DOUBLE', encoding: 'PLAIN' }] });
const rows = await parquetReadObjects({ file: await asyncBufferFromFile('/tmp/wide/negzero3.parquet') });
console.log(rows.map((row) => Object.is(row.x, -0) ? '-0' : String(row.x)));
