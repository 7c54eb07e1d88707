import { defineConfig } from 'tsup';
import { packageBuild } from '../tsup.base.js';

export default defineConfig(
  packageBuild({
    index: 'src/index.ts',
    'processes/papaparse-parse': 'src/processes/papaparse-parse.ts',
    'processes/csv-convert': 'src/processes/csv-convert.ts',
    'processes/sharp-resize': 'src/processes/sharp-resize.ts',
    'processes/hyparquet-read': 'src/processes/hyparquet-read.ts',
  }),
);
