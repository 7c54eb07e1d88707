import type { Command } from '../command.js';

/** `tfpipe view`: the browser inspector, served with the named files on loopback only. */
export const viewCommand: Command = {
  name: 'view',
  summary: 'inspect TFRecord files in the browser (served on 127.0.0.1 only)',
  usage: `Usage: tfpipe view FILE|DIR... [options]

Serves the tfpipe view page and the named TFRecord files (a directory: the files in it, with the .idx
files and manifest the page checks and shows) on 127.0.0.1,
on a random port, under a per-run token; prints the URL and opens it in the browser. Nothing else is
served and nothing leaves the machine. Runs until interrupted (Ctrl-C).

Options:
  --no-open       print the URL without opening a browser
  --port N        listen on port N (default: a free port)
  --host HOST     a loopback address: 127.0.0.1 (default), ::1 or localhost`,
  options: { 'no-open': { type: 'boolean' }, port: { type: 'string' }, host: { type: 'string' } },
  load: async () => (await import('./view.js')).viewFiles,
};
