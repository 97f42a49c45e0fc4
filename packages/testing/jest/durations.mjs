// Seconds each of the slowest test files took on a whole run (two workers, a busy two-core
// machine); sequencer.mjs starts them first. Refresh with `pnpm jest --json --outputFile=…`.
export const measuredSeconds = {};
