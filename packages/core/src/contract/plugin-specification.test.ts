import { describe, expect, it } from 'vitest';
import type { TfpipeError } from '../errors/tfpipe-error.js';
import { rejectionOf } from '../testing/rejection.js';
import { defineSinkPlugin, defineSourcePlugin } from './plugin-definition.js';
import { checkPluginSpecification, PLUGIN_SPECIFICATION_VERSION } from './plugin-specification.js';

const options = {
  '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) },
} as const;
const source = {
  kind: 'source',
  name: 'tfpipe-source-test',
  description: 'nothing',
  options,
  output: 'rows',
  create: () => ({ readable: new ReadableStream() }),
} as const;

/** The error `run` throws, through core/testing's `rejectionOf`. */
const failure = (run: () => void): Promise<TfpipeError> => rejectionOf(Promise.resolve().then(run));

describe('plugin specification versions', () => {
  it('defineSourcePlugin and defineSinkPlugin stamp the version this core implements, keeping a given one', () => {
    expect(PLUGIN_SPECIFICATION_VERSION).toBe(1);
    const defined = defineSourcePlugin(source);
    expect(defined.specificationVersion).toBe(1);
    expect(defined).toMatchObject({ kind: 'source', name: 'tfpipe-source-test', output: 'rows' });
    expect(Object.keys(defined).sort()).toEqual([...Object.keys(source), 'specificationVersion'].sort());
    expect(defineSourcePlugin({ ...source, specificationVersion: 3 }).specificationVersion).toBe(3);
    const sink = defineSinkPlugin({
      kind: 'sink',
      name: 'tfpipe-sink-test',
      description: 'nothing',
      options,
      outputDirectory: () => undefined,
      create: () => new WritableStream(),
    });
    expect(sink.specificationVersion).toBe(1);
  });

  it('accepts the current version and a definition written without one', () => {
    expect(() =>
      checkPluginSpecification(defineSourcePlugin(source), { field: 'source.plugin' }),
    ).not.toThrow();
    expect(() => checkPluginSpecification(source, { field: 'source.plugin' })).not.toThrow();
  });

  it('refuses a newer version with one fatal UNKNOWN_PLUGIN naming the key, the plugin, both versions and the file', async () => {
    const error = await failure(() =>
      checkPluginSpecification(
        { ...source, specificationVersion: 2 },
        { field: 'source.plugin', file: 'pipeline.yaml' },
      ),
    );
    expect(error.code).toBe('UNKNOWN_PLUGIN');
    expect(error.fatal).toBe(true);
    expect(error.position).toEqual({ file: 'pipeline.yaml' });
    expect(error.message).toContain('source.plugin: cannot use plugin "tfpipe-source-test"');
    expect(error.message).toContain(
      'built for plugin specification 2; this @tfpipe/core implements 1: upgrade @tfpipe/core',
    );
  });

  it.each([0, 1.5, '1', null])(
    'refuses specificationVersion %j as not a positive integer',
    async (version) => {
      const error = await failure(() =>
        checkPluginSpecification({ ...source, specificationVersion: version }, { field: 'sink.plugin' }),
      );
      expect(error.code).toBe('UNKNOWN_PLUGIN');
      expect(error.message).toContain('is not a positive integer');
    },
  );
});
