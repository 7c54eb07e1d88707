import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base.js';

export default defineConfig(
  packageBuild({
    index: 'src/index.ts',
    plugin: 'src/plugin.ts',
    internal: 'src/internal.ts',
    protobuf: 'src/protobuf.ts',
    'testing/index': 'src/testing/index.ts',
  }),
);
