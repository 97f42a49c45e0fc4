// The wall-clock rule on the assertions it must report and the ones it must leave alone.
/* global describe, it -- Jest's, in a plain JavaScript test */
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { noWallClockAssertions } from './wall-clock.js';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const tester = new RuleTester({ languageOptions: { parser: tseslint.parser } });
const reported = (code) => ({ code, errors: [{ messageId: 'wallClock' }] });

tester.run('no-wall-clock-assertions', noWallClockAssertions, {
  valid: [
    // Clock readings compared as instants, not durations.
    'expect(row.expiresAt.getTime()).toBeGreaterThan(Date.now());',
    'const code = codeAt(secret, Date.now() - 30_000); expect(code).toHaveLength(6);',
    // A deadline of a polling loop is no assertion.
    'const until = Date.now() + 5000; while (Date.now() < until) await poll(); expect(done).toBe(true);',
    // Other fields of an object that also holds a duration.
    'const timed = async () => { const started = Date.now(); const res = await go(); return { status: res.status, ms: Date.now() - started }; }; const a = await timed(); expect(a.status).toBe(200);',
    'expect(await readyz()).toEqual({ status: 200, body: {} });',
  ],
  invalid: [
    reported('const started = Date.now(); await go(); expect(Date.now() - started).toBeLessThan(50);'),
    reported('const t0 = performance.now(); await go(); const elapsed = performance.now() - t0; expect(elapsed < 100).toBe(true);'),
    reported('const s = process.hrtime.bigint(); await go(); const took = Number(process.hrtime.bigint() - s) / 1e6; expect(took).toBeLessThan(10);'),
    reported('const res = await probe(); expect(res.ms).toBeLessThan(2000);'),
    reported(
      'const timed = async () => { const start = performance.now(); await go(); return performance.now() - start; }; const xs = []; for (const i of [1, 2]) xs.push(await timed()); const ys = []; ys.push(await timed()); expect(median(xs) / median(ys)).toBeLessThan(2);',
    ),
    reported('const answers = await load(); expect(answers.filter((a) => a.status === 503 && a.ms < 100).length).toBeGreaterThan(8);'),
    reported('const slow = answers.filter((a) => a.ms > 1000); expect({ slow, failed }).toEqual({ slow: [], failed: [] });'),
    reported('const histogram = monitorEventLoopDelay({ resolution: 10 }); histogram.enable(); await go(); expect(histogram.max / 1e6).toBeLessThan(120);'),
    reported('const closing = Date.now(); await close(); const closed = Date.now(); expect(closed - closing).toBeGreaterThan(500);'),
  ],
});
