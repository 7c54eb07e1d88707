import { realpathSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tfpipe } from './__fixtures__/run-cli.js';

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-plugin-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

// A third-party source published as its own ESM package: no dependency on tfpipe at all, just an
// exported `plugin` with a hand-written Standard Schema (the `~standard` interface zod and valibot
// implement), installed in the node_modules beside the config file.
const PLUGIN_SOURCE = `
const options = {
  '~standard': {
    version: 1,
    vendor: 'hand-written',
    validate(value) {
      if (typeof value !== 'object' || value === null) return { issues: [{ message: 'expected an object' }] };
      const unknown = Object.keys(value).filter((key) => key !== 'count');
      if (unknown.length > 0) return { issues: [{ message: 'unknown key', path: [unknown[0]] }] };
      if (!Number.isInteger(value.count) || value.count < 1) {
        return { issues: [{ message: 'expected a positive integer', path: ['count'] }] };
      }
      return { value };
    },
  },
};
export const plugin = {
  kind: 'source',
  name: 'tfpipe-source-squares',
  description: 'the numbers 0..count-1 and their squares',
  options,
  output: 'rows',
  create({ count }) {
    let next = 0;
    const readable = new ReadableStream({
      pull(controller) {
        if (next === count) return controller.close();
        controller.enqueue({ n: next, square: next * next });
        next++;
      },
    });
    return { readable };
  },
};
`;

// A third-party source with an error code of its own: declared for the types (in its .d.ts) and
// registered with core at load, then thrown like any of tfpipe's codes.
const WEATHER_SOURCE = `
import { registerErrorCodes, TfpipeError } from '@tfpipe/core';
registerErrorCodes(['WEATHER_STATION_OFFLINE']);
export const plugin = {
  kind: 'source',
  name: 'tfpipe-source-weather',
  description: 'readings of a weather station',
  options: { '~standard': { version: 1, vendor: 'hand-written', validate: (value) => ({ value }) } },
  output: 'rows',
  create() {
    const readable = new ReadableStream({
      pull() {
        throw new TfpipeError('WEATHER_STATION_OFFLINE', 'station offline', {
          stage: 'weatherSource',
          fatal: true,
          position: { file: 'station-7', recordIndex: 0 },
        });
      },
    });
    return { readable };
  },
};
`;

async function installPlugin(name = 'tfpipe-source-squares', source = PLUGIN_SOURCE): Promise<void> {
  const root = join(directory, 'node_modules', name);
  await mkdir(root, { recursive: true });
  await writeFile(
    join(root, 'package.json'),
    JSON.stringify({
      name,
      version: '1.0.0',
      type: 'module',
      exports: './index.js',
    }),
  );
  await writeFile(join(root, 'index.js'), source);
}

describe('third-party plugins in pipeline files', () => {
  it('loads an installed package that exports `plugin`, validates its options with its own schema, and runs it', async () => {
    await installPlugin();
    const config = join(directory, 'squares.json');
    const pipeline = {
      source: { plugin: 'tfpipe-source-squares', options: { count: 5 } },
      spec: { n: 'int64', square: 'int64' },
      sink: { plugin: '@tfpipe/sink-tfrecord', options: { path: 'squares.tfrecord' } },
    };
    await writeFile(config, JSON.stringify(pipeline));
    const result = await tfpipe(['run', config]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const shown = await tfpipe(['inspect', '--json', join(directory, 'squares.tfrecord')]);
    const values = shown.stdout
      .trim()
      .split('\n')
      .map((line) => {
        const feature = (
          JSON.parse(line) as { features: { feature: Record<string, { int64List: { value: string[] } }> } }
        ).features.feature;
        return [feature.n!.int64List.value[0], feature.square!.int64List.value[0]];
      });
    expect(values).toEqual([
      ['0', '0'],
      ['1', '1'],
      ['2', '4'],
      ['3', '9'],
      ['4', '16'],
    ]);

    await writeFile(
      config,
      JSON.stringify({ ...pipeline, source: { ...pipeline.source, options: { count: 'five' } } }),
    );
    const refused = await tfpipe(['run', config]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('source.options.count: expected a positive integer');
  });

  it('refuses a plugin written for a newer plugin specification, naming both versions', async () => {
    const future = PLUGIN_SOURCE.replace("kind: 'source',", "kind: 'source',\n  specificationVersion: 2,");
    expect(future).toContain('specificationVersion: 2');
    await installPlugin('tfpipe-source-future', future);
    const config = join(directory, 'future.json');
    await writeFile(
      config,
      JSON.stringify({
        source: { plugin: 'tfpipe-source-future', options: { count: 5 } },
        spec: { n: 'int64', square: 'int64' },
        sink: { plugin: '@tfpipe/sink-tfrecord', options: { path: 'future.tfrecord' } },
      }),
    );
    const result = await tfpipe(['run', config]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('source.plugin: cannot use plugin "tfpipe-source-squares"');
    expect(result.stderr).toContain(
      'built for plugin specification 2; this @tfpipe/core implements 1: upgrade @tfpipe/core',
    );
    expect(result.stderr).toContain('[UNKNOWN_PLUGIN]');
  });

  it('names an uninstalled package as an unknown plugin', async () => {
    const config = join(directory, 'missing.json');
    await writeFile(
      config,
      JSON.stringify({
        source: { plugin: 'tfpipe-source-not-installed', options: {} },
        sink: { plugin: '@tfpipe/sink-tfrecord', options: { path: 'x.tfrecord' } },
      }),
    );
    const result = await tfpipe(['run', config]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown plugin "tfpipe-source-not-installed"');
  });

  it("prints the error code a plugin registered, as it prints tfpipe's own", async () => {
    await installPlugin('tfpipe-source-weather', WEATHER_SOURCE);
    // The plugin peer-depends on @tfpipe/core: the copy installed beside it is this workspace's.
    const core = realpathSync(join(dirname(fileURLToPath(import.meta.url)), '../node_modules/@tfpipe/core'));
    await mkdir(join(directory, 'node_modules/@tfpipe'), { recursive: true });
    await symlink(core, join(directory, 'node_modules/@tfpipe/core'), 'dir').catch(() => undefined);
    const config = join(directory, 'weather.json');
    await writeFile(
      config,
      JSON.stringify({
        source: { plugin: 'tfpipe-source-weather', options: {} },
        sink: { plugin: '@tfpipe/sink-tfrecord', options: { path: 'weather.tfrecord' } },
      }),
    );
    const result = await tfpipe(['run', config]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('station offline at record 0 of station-7 [WEATHER_STATION_OFFLINE]');
  });
});
