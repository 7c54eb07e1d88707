import { TfpipeError } from '@tfpipe/core';
import type { Command } from '../command.js';
import { booleanFlag, integerFlag, requirePositionals, stringFlag } from '../flags.js';
import { writeLine } from '../io.js';

const LOOPBACK = ['127.0.0.1', '::1', 'localhost'];

/** `tfpipe view`: the browser inspector, served with the named files on loopback only. */
export const viewCommand: Command = {
  name: 'view',
  summary: 'inspect TFRecord files in the browser (served on 127.0.0.1 only)',
  usage: `Usage: tfpipe view FILE|DIR... [options]

Serves the tfpipe view page and the named TFRecord files (a directory: the files in it) on 127.0.0.1,
on a random port, under a per-run token; prints the URL and opens it in the browser. Nothing else is
served and nothing leaves the machine. Runs until interrupted (Ctrl-C).

Options:
  --no-open       print the URL without opening a browser
  --port N        listen on port N (default: a free port)
  --host HOST     a loopback address: 127.0.0.1 (default), ::1 or localhost`,
  options: { 'no-open': { type: 'boolean' }, port: { type: 'string' }, host: { type: 'string' } },
  async run(values, positionals, io) {
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
    const [{ viewFiles }, { startViewServer }, { viewerBundle }, { openBrowser }] = await Promise.all([
      import('../view/view-files.js'),
      import('../view/view-server.js'),
      import('../view/viewer-bundle.js'),
      import('../view/open-browser.js'),
    ]);
    const files = await viewFiles(paths, io.cwd);
    const server = await startViewServer({ bundleDirectory: viewerBundle(), files, host, port });
    await writeLine(
      io.stdout,
      `tfpipe view: ${files.length} file${files.length === 1 ? '' : 's'} at ${server.url}`,
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
  },
};
