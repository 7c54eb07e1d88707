import { TfpipeError } from '@tfpipe/core';
import { importPeer } from '../plugins/import-peer.js';

/** Where the queue lives: a Redis URL and the BullMQ queue name. */
export interface QueueConnectionOptions {
  /** The user's Redis, as `redis://[user:password@]host[:port][/db]` (`rediss://` for TLS). */
  readonly redis: string;
  /** The BullMQ queue's name; workers of one plan must use the same. @default 'tfpipe' */
  readonly queue?: string;
}

/** The default BullMQ queue name. */
export const DEFAULT_QUEUE = 'tfpipe';

/** How to reach Redis, for BullMQ and ioredis. */
export type RedisConnection = {
  readonly host: string;
  readonly port: number;
  readonly db: number;
  readonly username?: string;
  readonly password?: string;
  readonly tls?: Record<string, never>;
  /** BullMQ's blocking commands need `null` (retry until Redis answers). */
  readonly maxRetriesPerRequest: null;
};

/** A Redis URL's connection options. */
export function redisOptions(url: string): RedisConnection {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidRedis(url, 'is not a URL');
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:')
    throw invalidRedis(url, 'must start with redis:// or rediss://');
  const db = parsed.pathname === '' || parsed.pathname === '/' ? 0 : Number(parsed.pathname.slice(1));
  if (!Number.isSafeInteger(db) || db < 0)
    throw invalidRedis(url, `names database ${parsed.pathname.slice(1)}`);
  return {
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: parsed.port === '' ? 6379 : Number(parsed.port),
    db,
    ...(parsed.username === '' ? {} : { username: decodeURIComponent(parsed.username) }),
    ...(parsed.password === '' ? {} : { password: decodeURIComponent(parsed.password) }),
    ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
    maxRetriesPerRequest: null,
  };
}

/** The URL as it may be printed: without its password. */
export function shownRedis(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

/**
 * Connects once, without retrying, and pings: an unreachable Redis is `QUEUE_UNREACHABLE` at once
 * rather than a client retrying forever.
 */
export async function checkRedis(url: string, timeoutMs = 5000): Promise<void> {
  const { Redis } = await importPeer('ioredis', () => import('ioredis'), 'the tfpipe queue');
  const client = new Redis({
    ...redisOptions(url),
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  // The client's own error says why it closed (refused credentials: NOAUTH, WRONGPASS), where the
  // failed call only says that it did.
  let cause: unknown;
  client.on('error', (error: unknown) => {
    cause ??= error;
  });
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    const why =
      cause === undefined || messageOf(cause) === messageOf(error)
        ? messageOf(error)
        : `${messageOf(error)} ${messageOf(cause)}`;
    throw new TfpipeError('QUEUE_UNREACHABLE', `cannot reach Redis at ${shownRedis(url)}: ${why}`, {
      stage: 'queue',
      fatal: true,
      cause: error,
    });
  } finally {
    client.disconnect();
  }
}

function invalidRedis(url: string, detail: string): TfpipeError {
  return new TfpipeError('INVALID_OPTION', `redis ${shownRedis(url)} ${detail}`, {
    stage: 'queue',
    fatal: true,
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
