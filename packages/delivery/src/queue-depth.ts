import { MAIL_QUEUE, PREVIOUS_MAIL_QUEUES } from '@hush/queue';

/** What reading the mail queues' depth needs of a Redis connection (ioredis'). */
export interface DepthRedis {
  llen(key: string): Promise<number>;
  zcard(key: string): Promise<number>;
}

/**
 * The jobs still to run in the mail queue and its previous names, as BullMQ's `Queue.count()`
 * counts them (waiting, delayed, prioritized, waiting for children), read from its keys
 * (`<prefix>:<queue>:<state>`) with plain commands: a process that has not sent e-mail yet reads
 * it without loading BullMQ. queue-depth.test.ts checks it against `Queue.count()`.
 */
export async function mailQueueDepth(redis: DepthRedis, prefix: string): Promise<number> {
  const counts = [MAIL_QUEUE, ...PREVIOUS_MAIL_QUEUES].flatMap((queue) => {
    const key = (state: string) => `${prefix}:${queue}:${state}`;
    return [redis.llen(key('wait')), redis.zcard(key('delayed')), redis.zcard(key('prioritized')), redis.zcard(key('waiting-children'))];
  });
  return (await Promise.all(counts)).reduce((a, b) => a + b, 0);
}
