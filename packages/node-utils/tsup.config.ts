import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base.js';

// zod is bundled (into the options entry, the only one that imports it): one module to load at
// start-up instead of ~95, and only the builders src/zod.ts names. Its declarations import zod's
// types, a dependency of this package.
export default defineConfig(
  packageBuild({ index: 'src/index.ts', options: 'src/options.ts' }, { noExternal: ['zod'] }),
);
