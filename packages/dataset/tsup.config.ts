import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base.js';

export default defineConfig(
  packageBuild({ index: 'src/index.ts', node: 'src/node.ts', 'parse-worker': 'src/node/parse-worker.ts' }),
);
