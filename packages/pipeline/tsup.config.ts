import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base.js';

export default defineConfig(
  packageBuild({
    index: 'src/index.ts',
    run: 'src/run.ts',
    expression: 'src/expression.ts',
    'work-child': 'src/scale/work-child.ts',
  }),
);
