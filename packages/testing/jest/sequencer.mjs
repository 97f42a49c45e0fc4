// Orders the test files for Jest's workers: the longest first, so that the run does not end with
// one worker busy on a long file while the other idles. Jest learns durations in its cache, which
// a clean clone (CI) does not have; so the durations measured on a run are kept here (seconds,
// on two busy cores), and a file not listed weighs its size, as Jest's own sequencer does. A run
// that holds a browser test file is marked for the global setup, which starts Chromium for it.
import { statSync } from 'node:fs';
import { relative } from 'node:path';
import { drivesChromium, wantChromium } from './chromium-server.mjs';
import { measuredSeconds } from './durations.mjs';

const BYTES_PER_SECOND = 2000;

export default class LongestFirst {
  sort(tests) {
    if (tests.some((test) => drivesChromium(test.path))) wantChromium();
    const weight = (test) => measuredSeconds[relative(test.context.config.rootDir, test.path)] ?? statSync(test.path).size / BYTES_PER_SECOND;
    return tests
      .map((test) => ({ test, weight: weight(test) }))
      .sort((a, b) => b.weight - a.weight)
      .map(({ test }) => test);
  }

  cacheResults() {}

  // --onlyFailures needs the failures Jest's cache keeps; this sequencer keeps none, so it runs all.
  allFailedTests(tests) {
    return tests;
  }

  shard(tests, { shardIndex, shardCount }) {
    return tests.filter((_, i) => i % shardCount === shardIndex - 1);
  }
}
