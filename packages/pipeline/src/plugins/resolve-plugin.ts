import { createRequire } from 'node:module';
import { readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TfpipeError } from '@tfpipe/core';
import {
  checkPluginSpecification,
  type PluginDefinition,
  type SinkPluginDefinition,
  type SourcePluginDefinition,
} from '@tfpipe/core/plugin';
import { isMissingPackage } from './import-peer.js';

type PluginModule = Readonly<Record<string, unknown>>;

/**
 * The plugins tfpipe knows by name: its own packages, optional peers of this one, imported only when
 * a pipeline names them.
 */
const KNOWN: Readonly<Record<string, () => Promise<PluginModule>>> = {
  '@tfpipe/source-csv': () => import('@tfpipe/source-csv'),
  '@tfpipe/source-parquet': () => import('@tfpipe/source-parquet'),
  '@tfpipe/source-images': () => import('@tfpipe/source-images'),
  '@tfpipe/sink-tfrecord': () => import('@tfpipe/sink-tfrecord'),
  '@tfpipe/cli/jsonl': async () => ({ plugin: (await import('./jsonl-plugin.js')).jsonLinesPlugin }),
};

/** Short names for the known plugins. */
export const PLUGIN_ALIASES: Readonly<Record<string, string>> = {
  csv: '@tfpipe/source-csv',
  parquet: '@tfpipe/source-parquet',
  images: '@tfpipe/source-images',
  tfrecord: '@tfpipe/sink-tfrecord',
  jsonl: '@tfpipe/cli/jsonl',
};

const PACKAGE_NAME = /^(@[a-z0-9][\w.~-]*\/)?[a-z0-9][\w.~-]*$/;

function unknownPlugin(name: string, field: string, file: string | undefined, reason: string): TfpipeError {
  return new TfpipeError('UNKNOWN_PLUGIN', `${field}: unknown plugin ${JSON.stringify(name)}`, {
    stage: 'config',
    fatal: true,
    position: file === undefined ? {} : { file },
    reason,
  });
}

/** Finds an installed package from `directory` upwards and imports its ESM entry. */
async function importInstalled(name: string, directory: string): Promise<PluginModule | undefined> {
  try {
    const resolved = createRequire(join(directory, 'noop.js')).resolve(name);
    return (await import(pathToFileURL(resolved).href)) as PluginModule;
  } catch {
    // ESM-only packages have no `require` export: look for the package folder and its `import` entry.
  }
  for (let current = directory; ; current = dirname(current)) {
    const root = join(current, 'node_modules', name);
    const manifest = await readFile(join(root, 'package.json'), 'utf8').catch(() => undefined);
    if (manifest !== undefined) {
      const parsed = JSON.parse(manifest) as { exports?: unknown; main?: string };
      const dot =
        typeof parsed.exports === 'object' && parsed.exports !== null
          ? ((parsed.exports as Record<string, unknown>)['.'] ?? parsed.exports)
          : parsed.exports;
      const entry =
        typeof dot === 'string'
          ? dot
          : typeof dot === 'object' && dot !== null
            ? ((dot as Record<string, unknown>).import ?? (dot as Record<string, unknown>).default)
            : undefined;
      const file = join(root, typeof entry === 'string' ? entry : (parsed.main ?? 'index.js'));
      if (await stat(file).catch(() => undefined))
        return (await import(pathToFileURL(file).href)) as PluginModule;
      return undefined;
    }
    if (dirname(current) === current) return undefined;
  }
}

function isDefinition(value: unknown, kind: 'source' | 'sink'): value is PluginDefinition {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as {
    kind?: unknown;
    create?: unknown;
    options?: { '~standard'?: { validate?: unknown } };
  };
  return (
    candidate.kind === kind &&
    typeof candidate.create === 'function' &&
    typeof candidate.options?.['~standard']?.validate === 'function'
  );
}

/**
 * Resolves `plugin` (a name in a config, or a definition in code) to a definition of `kind`:
 * a short name or a known `@tfpipe/*` package, else an installed package (looked up from
 * `directory` upwards) exporting `plugin`, `sourcePlugin` or `sinkPlugin` of that kind.
 *
 * @throws TfpipeError `UNKNOWN_PLUGIN` naming the config key.
 */
export async function resolvePlugin<Kind extends 'source' | 'sink'>(
  plugin: unknown,
  kind: Kind,
  field: string,
  directory: string,
  file: string | undefined,
): Promise<Kind extends 'source' ? SourcePluginDefinition : SinkPluginDefinition> {
  if (typeof plugin !== 'string') {
    if (isDefinition(plugin, kind)) {
      checkPluginSpecification(plugin, { field, file });
      return plugin as never;
    }
    throw unknownPlugin(
      String(plugin),
      field,
      file,
      `expected a package name or a ${kind} plugin definition`,
    );
  }
  const name = packageNameOf(plugin);
  let module: PluginModule | undefined;
  const known = knownLoader(name);
  if (known !== undefined) {
    module = await known().catch((error: unknown) => {
      if (!isMissingPackage(error, name)) throw error;
      throw unknownPlugin(plugin, field, file, `${name} is not installed: npm install ${name}`);
    });
  } else if (PACKAGE_NAME.test(name)) module = await importInstalled(name, directory).catch(() => undefined);
  else throw unknownPlugin(plugin, field, file, 'not a package name');
  if (module === undefined) {
    throw unknownPlugin(
      plugin,
      field,
      file,
      `not one of ${Object.keys(PLUGIN_ALIASES).join(', ')} (or their @tfpipe/* packages), and no installed package of that name`,
    );
  }
  const candidates = [module[`${kind}Plugin`], module.plugin];
  const found = candidates.find((candidate) => isDefinition(candidate, kind));
  if (found === undefined) {
    throw unknownPlugin(
      plugin,
      field,
      file,
      `the package exports no ${kind} plugin (export const plugin = { kind: '${kind}', … })`,
    );
  }
  checkPluginSpecification(found, { field, file });
  return found as never;
}

/**
 * Imports a plugin tfpipe knows by name (as a config names it: `csv`, `@tfpipe/source-csv`…) ahead of
 * {@link resolvePlugin}, which then finds its module loaded. Does nothing for any other name and
 * never fails: the resolve itself reports a package that is missing or broken.
 */
export async function preloadKnownPlugin(plugin: string): Promise<void> {
  await knownLoader(packageNameOf(plugin))?.().catch(() => undefined);
}

/** The package a plugin name stands for: a short name's package, else the name itself. */
function packageNameOf(plugin: string): string {
  return Object.hasOwn(PLUGIN_ALIASES, plugin) ? PLUGIN_ALIASES[plugin]! : plugin;
}

/** The loader of a `@tfpipe/*` plugin package tfpipe knows (own keys only: `constructor` is no plugin). */
function knownLoader(name: string): (() => Promise<PluginModule>) | undefined {
  return Object.hasOwn(KNOWN, name) ? KNOWN[name] : undefined;
}

/**
 * The definitions of the plugins tfpipe knows by name that are installed, each with the names a
 * pipeline file may give it (package name and short names): what the JSON Schema of pipeline
 * files describes.
 */
export async function knownPlugins(): Promise<{ names: string[]; definition: PluginDefinition }[]> {
  const found: { names: string[]; definition: PluginDefinition }[] = [];
  for (const [name, load] of Object.entries(KNOWN)) {
    const module = await load().catch((error: unknown) => {
      if (isMissingPackage(error, name)) return undefined;
      throw error;
    });
    if (module === undefined) continue;
    const names = [name, ...Object.keys(PLUGIN_ALIASES).filter((alias) => PLUGIN_ALIASES[alias] === name)];
    for (const kind of ['source', 'sink'] as const) {
      const definition = [module[`${kind}Plugin`], module.plugin].find((candidate) =>
        isDefinition(candidate, kind),
      );
      if (definition !== undefined) found.push({ names, definition });
    }
  }
  return found;
}
