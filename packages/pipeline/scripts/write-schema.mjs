// `pnpm --filter @tfpipe/pipeline schema`: writes pipeline.schema.json from the built package (run
// `pnpm build` first). src/config/pipeline-json-schema.test.ts fails while the file is out of date.
import { writeFileSync } from 'node:fs';
import { stdout } from 'node:process';
import { fileURLToPath, URL } from 'node:url';
import { pipelineJsonSchema } from '../dist/index.js';

const file = fileURLToPath(new URL('../pipeline.schema.json', import.meta.url));
writeFileSync(file, `${JSON.stringify(await pipelineJsonSchema(), null, 2)}\n`);
stdout.write(`wrote ${file}\n`);
