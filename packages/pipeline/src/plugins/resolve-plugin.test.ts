import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { preloadKnownPlugin, resolvePlugin } from './resolve-plugin.js';

describe('plugin names that are properties of every object', () => {
  it('are looked up as package names, never as the alias or known-plugin tables’ inherited members', async () => {
    for (const name of ['constructor', 'toString', 'hasOwnProperty']) {
      const error = await resolvePlugin(name, 'source', 'source.plugin', tmpdir(), undefined).catch(
        (caught: unknown) => caught,
      );
      expect(error).toMatchObject({ code: 'UNKNOWN_PLUGIN' });
      expect((error as Error).message).toContain(`source.plugin: unknown plugin "${name}"`);
      expect((error as Error).message).toContain('no installed package of that name');
    }
    const proto = await resolvePlugin('__proto__', 'sink', 'sink.plugin', tmpdir(), undefined).catch(
      (caught: unknown) => caught,
    );
    expect(proto).toMatchObject({ code: 'UNKNOWN_PLUGIN' });
    expect((proto as Error).message).toContain('sink.plugin: unknown plugin "__proto__"');
  });

  it('are preloaded as nothing, without an error a work child would not catch', async () => {
    for (const name of ['constructor', '__proto__', 'toString', 'no-such-plugin'])
      await expect(preloadKnownPlugin(name)).resolves.toBeUndefined();
  });
});
