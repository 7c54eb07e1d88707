import { TfpipeError } from '@tfpipe/core';

/**
 * Loads an optional peer dependency once, when the adapter's entry loads. The entry loads without the
 * peer (so importing every entry of the package never fails), and the adapter's first call then says
 * what to install instead of failing at import with the module resolver's message.
 * @returns a function that gives the module, or throws `INVALID_OPTION` naming the package to install
 */
export async function loadOptionalPeer<M>(
  name: string,
  stage: string,
  load: () => Promise<M>,
): Promise<() => M> {
  try {
    const module = await load();
    return () => module;
  } catch (error) {
    return () => {
      throw new TfpipeError('INVALID_OPTION', `${stage} needs ${name}: install it (npm install ${name})`, {
        stage,
        fatal: true,
        cause: error,
      });
    };
  }
}
