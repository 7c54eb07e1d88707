import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export { peopleCsv } from '../../../../test-support/people-csv.js';

/** Writes `config` as pretty JSON into `directory/name` and returns the path. */
export async function writeConfig(directory: string, name: string, config: unknown): Promise<string> {
  const file = join(directory, name);
  await writeFile(file, `${JSON.stringify(config, null, 2)}\n`);
  return file;
}
