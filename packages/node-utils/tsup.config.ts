import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base.js';

// zod is bundled (into the options entry, the only one that imports it): one module to load at
// start-up instead of ~95, and only the builders src/zod.ts names. The options entry's declarations
// come from tsc (tsconfig.options-dts.json), not from tsup's bundler: bundled, the namespace `z`
// (zod's types plus the re-exported builders) loses its types.
export default defineConfig(
  packageBuild(
    { index: 'src/index.ts', options: 'src/options.ts' },
    { noExternal: ['zod'], dts: { entry: { index: 'src/index.ts' } } },
  ),
);
