import { TfpipeError } from '../errors/tfpipe-error.js';

/**
 * The version of the plugin contract (`SourcePluginDefinition`, `SinkPluginDefinition` and what
 * they are given) this `@tfpipe/core` implements. It goes up when the contract changes in a way an
 * older host cannot run, so that such a plugin is refused by name instead of failing mid-run.
 */
export const PLUGIN_SPECIFICATION_VERSION = 1;

/** Where a plugin was named, for the error. */
export interface PluginPlace {
  /** The config key that names the plugin, e.g. `'source.plugin'`. */
  readonly field: string;
  /** The config file, when the pipeline came from one. @default undefined */
  readonly file?: string | undefined;
}

/**
 * Refuses a plugin definition written for a newer plugin specification than this core implements.
 * A definition without `specificationVersion` (written by hand before the field existed) is taken
 * as version 1.
 * @throws TfpipeError `UNKNOWN_PLUGIN` (fatal) naming the config key, the plugin and both versions,
 *   or when `specificationVersion` is not a positive integer
 */
export function checkPluginSpecification(
  definition: { readonly name?: unknown; readonly specificationVersion?: unknown },
  place: PluginPlace,
): void {
  const version = definition.specificationVersion === undefined ? 1 : definition.specificationVersion;
  const integer = typeof version === 'number' && Number.isInteger(version) && version >= 1;
  if (integer && version <= PLUGIN_SPECIFICATION_VERSION) return;
  const name = typeof definition.name === 'string' ? definition.name : 'the plugin';
  const reason = integer
    ? `it was built for plugin specification ${version}; this @tfpipe/core implements ${PLUGIN_SPECIFICATION_VERSION}: upgrade @tfpipe/core and the tfpipe packages`
    : `its specificationVersion ${JSON.stringify(version)} is not a positive integer`;
  throw new TfpipeError('UNKNOWN_PLUGIN', `${place.field}: cannot use plugin ${JSON.stringify(name)}`, {
    stage: 'config',
    fatal: true,
    position: place.file === undefined ? {} : { file: place.file },
    reason,
  });
}
