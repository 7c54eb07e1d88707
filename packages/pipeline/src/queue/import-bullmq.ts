import type * as Bullmq from 'bullmq';
import { importPeer } from '../plugins/import-peer.js';

/** BullMQ, an optional peer loaded by the queue only. */
export function importBullmq(neededBy: string): Promise<typeof Bullmq> {
  return importPeer('bullmq', () => import('bullmq'), neededBy);
}
