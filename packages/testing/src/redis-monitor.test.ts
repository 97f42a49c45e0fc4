import { Redis } from 'ioredis';
import { parseMonitorLine, RedisMonitor } from './redis-monitor.js';
import { testRedisUrl, uniquePrefix } from './index.js';

describe('RedisMonitor', () => {
  it('starts while another connection keeps Redis busy, and sees each command it ran, in order', async () => {
    const busy = new Redis(testRedisUrl);
    const ours = new Redis(testRedisUrl);
    const prefix = uniquePrefix('redis-monitor-test');
    let running = true;
    // Commands run while MONITOR answers: the first lines shown arrive with its reply.
    const flood = (async () => {
      while (running) await Promise.all(Array.from({ length: 50 }, (_, i) => busy.exists(`${prefix}busy:${i}`)));
    })();
    try {
      for (let round = 0; round < 20; round++) {
        const monitor = await RedisMonitor.start(testRedisUrl);
        try {
          const seen = await monitor.during(async () => {
            await ours.set(`${prefix}a`, 'one "two"\n');
            await ours.mget(`${prefix}a`, `${prefix}b`);
          });
          const mine = seen.filter((s) => s.args.some((arg) => arg.startsWith(`${prefix}`) && !arg.includes('busy')));
          expect(mine.map((s) => [s.command, ...s.args])).toEqual([
            ['set', `${prefix}a`, 'one "two"\n'],
            ['mget', `${prefix}a`, `${prefix}b`],
          ]);
          expect(new Set(mine.map((s) => s.from))).toEqual(new Set([`${ours.stream.localAddress}:${ours.stream.localPort}`]));
        } finally {
          monitor.close();
        }
      }
    } finally {
      running = false;
      await flood;
      busy.disconnect();
      ours.disconnect();
    }
  });

  it('reads what Redis escapes in an argument', () => {
    expect(parseMonitorLine('+1700000000.123456 [0 127.0.0.1:5000] "SET" "k\\\\1" "\\xff\\x00\\"\\r\\n" ""')).toEqual({
      command: 'set',
      args: ['k\\1', '\xff\x00"\r\n', ''],
      from: '127.0.0.1:5000',
    });
    expect(parseMonitorLine('+1700000000.123456 [0 lua] "incrby" "k" "1"')).toEqual({ command: 'incrby', args: ['k', '1'], from: 'lua' });
    expect(parseMonitorLine('+OK')).toBeUndefined();
  });
});
