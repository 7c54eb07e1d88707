import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base.js';

// zod is bundled (into the options entry, the only one that imports it): one module to load at
// start-up instead of ~95; its types still come from the zod package.
export default defineConfig(
  packageBuild({ index: 'src/index.ts', options: 'src/options.ts' }, { noExternal: ['zod'] }),
);
