import { TfpipeError } from '@tfpipe/core';
import type { FlagValues } from '../command.js';
import { booleanFlag, integerFlag, requirePositionals, stringFlag } from '../flags.js';
import { writeLine, type CliIo } from '../io.js';

const LOOPBACK = ['127.0.0.1', '::1', 'localhost'];

/** Runs `tfpipe view`: serves the page and the named files until interrupted. */
export async function viewFiles(
  values: FlagValues,
  positionals: readonly string[],
  io: CliIo,
): Promise<number> {
  const host = stringFlag(values, 'host') ?? '127.0.0.1';
  if (!LOOPBACK.includes(host)) {
    throw new TfpipeError(
      'INVALID_OPTION',
      `--host: tfpipe view serves on loopback only (${LOOPBACK.join(', ')}), got "${host}"`,
      { stage: 'cli', fatal: true },
    );
  }
  const port = integerFlag(values, 'port') ?? 0;
  const paths = requirePositionals(positionals, 'FILE or DIR to view');
  // The server and the page bundle load only when this command runs.
  const [{ viewFiles: namedFiles, SIDECAR }, { startViewServer }, { viewerBundle }, { openBrowser }] =
    await Promise.all([
      import('../view/view-files.js'),
      import('../view/view-server.js'),
      import('../view/viewer-bundle.js'),
      import('../view/open-browser.js'),
    ]);
  const files = await namedFiles(paths, io.cwd);
  const server = await startViewServer({ bundleDirectory: viewerBundle(), files, host, port });
  const records = files.filter((file) => !SIDECAR.test(file.name)).length;
  const sidecars = files.length - records;
  await writeLine(
    io.stdout,
    `tfpipe view: ${records} file${records === 1 ? '' : 's'}${
      sidecars === 0 ? '' : ` (and ${sidecars} .idx/manifest)`
    } at ${server.url}`,
  );
  if (!booleanFlag(values, 'no-open') && !(await openBrowser(server.url))) {
    await writeLine(io.stderr, 'tfpipe view: no browser could be opened; open the URL above');
  }
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.close();
  return 0;
}
