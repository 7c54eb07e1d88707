import { parquetSource } from '/work/wt/wide/packages/source-parquet/dist/index.js';
const t = performance.now();
let n = 0;
for await (const row of parquetSource({ path: process.argv[2] })) n++;
console.log('rows', n, Math.round(performance.now() - t), 'ms');
