// The adapters' entries load without their optional peer; the first call says what to install.
import type { TfpipeError } from '@tfpipe/core';
import { describe, expect, it } from 'vitest';
import { loadOptionalPeer } from './optional-peer.js';

describe('loadOptionalPeer', () => {
  it('gives the module when it is installed', async () => {
    const load = await loadOptionalPeer(
      'onnxruntime-common',
      'toOrtFeeds',
      () => import('onnxruntime-common'),
    );
    expect(typeof load().Tensor).toBe('function');
  });

  it('loads without a missing package, and names it on use', async () => {
    const missing = 'tfpipe-test-package-that-is-not-installed';
    const load = await loadOptionalPeer(missing, 'toTfjs', () => import(missing));
    let error: TfpipeError | undefined;
    try {
      load();
    } catch (caught) {
      error = caught as TfpipeError;
    }
    expect(error?.code).toBe('INVALID_OPTION');
    expect(error?.message).toContain(`toTfjs needs ${missing}: install it (npm install ${missing})`);
  });
});
