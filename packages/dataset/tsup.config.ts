import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base.js';

export default defineConfig(
  packageBuild({
    index: 'src/index.ts',
    node: 'src/node.ts',
    ort: 'src/ort.ts',
    tfjs: 'src/tfjs.ts',
    'parse-worker': 'src/node/parse-worker.ts',
    'parse-worker-web': 'src/workers/parse-worker-web.ts',
    'image-worker-web': 'src/workers/image-worker-web.ts',
  }),
);
