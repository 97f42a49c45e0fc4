import { Queue } from 'bullmq';
import { connectRedis } from '@hush/common/base';
import { MAIL_QUEUE, PREVIOUS_MAIL_QUEUES } from '@hush/queue';
import { capturingLogger, testRedisUrl, uniquePrefix } from '@hush/testing';
import { mailQueueDepth } from './queue-depth.js';

describe('mailQueueDepth', () => {
  const prefix = uniquePrefix('depth').slice(0, -1);
  const queues = [MAIL_QUEUE, ...PREVIOUS_MAIL_QUEUES].map((name) => new Queue(name, { connection: { url: testRedisUrl }, prefix }));
  // The service's own kind of connection (what the secrets service passes the relay).
  const redis = connectRedis(testRedisUrl, 2000, capturingLogger('depth').logger);

  afterAll(async () => {
    for (const queue of queues) await queue.obliterate({ force: true });
    await Promise.all(queues.map((queue) => queue.close()));
    redis.disconnect();
  });

  it("counts what BullMQ's Queue.count() counts, over the mail queue and its previous names", async () => {
    const [current, previous] = queues;
    await current!.waitUntilReady();
    await redis.ping();
    expect(await mailQueueDepth(redis, prefix)).toBe(0);

    await current!.add('a', {});
    await current!.add('b', {});
    await current!.add('later', {}, { delay: 60_000 });
    await current!.add('urgent', {}, { priority: 1 });
    await previous!.add('old', {});
    await previous!.add('old-later', {}, { delay: 60_000 });

    const counted = (await Promise.all(queues.map((queue) => queue.count()))).reduce((a, b) => a + b, 0);
    expect(counted).toBe(6);
    expect(await mailQueueDepth(redis, prefix)).toBe(counted);
  });
});
