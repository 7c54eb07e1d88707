/**
 * The fallback probe for open file handles when a plugin passes none: on Node, the number of
 * pending file-system resources `process.getActiveResourcesInfo()` lists (read through
 * `globalThis`, so this module stays web-standard); `undefined` elsewhere. It sees in-flight reads
 * and closes, not idle open handles, so plugins that hold files should pass their own `openHandles`
 * (on Linux, counting the entries of `/proc/self/fd` is exact).
 */
export function activeFileResources(): number | undefined {
  const process = (globalThis as { process?: { getActiveResourcesInfo?: () => string[] } }).process;
  const info = process?.getActiveResourcesInfo?.();
  if (info === undefined) return undefined;
  return info.filter((name) => /FileHandle|FSReq|CloseReq/.test(name)).length;
}
