import { capturingLogger } from '@hush/testing';
import { BurstLog } from './burst-log.js';

describe('a burst of one event', () => {
  it('is logged as its first occurrence and, once quiet, one summary with the count', async () => {
    const { logger, logs } = capturingLogger('burst-test');
    const log = new BurstLog(logger, 'job lost; queued again', 50);
    for (let i = 0; i < 1000; i++) log.record({ deliveryId: `d-${i}` });
    expect(logs).toHaveLength(1);
    expect(JSON.parse(logs[0] as string)).toMatchObject({ msg: 'job lost; queued again', deliveryId: 'd-0', burst: 'started' });
    await new Promise((r) => setTimeout(r, 120));
    expect(logs).toHaveLength(2);
    expect(JSON.parse(logs[1] as string)).toMatchObject({ msg: 'job lost; queued again (summary)', count: 1000, burst: 'ended' });

    // The next burst starts afresh; a burst of one needs no summary.
    log.record({ deliveryId: 'd-next' });
    log.flush();
    expect(logs).toHaveLength(3);
  });
});
