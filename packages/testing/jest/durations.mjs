// Seconds each of the slowest test files took on a whole run (two workers on a two-core machine
// that other work kept busy; only the order matters); sequencer.mjs starts them first. Refresh
// with refresh-durations.mjs from the JSON report of a whole run when files are added or trimmed.
export const measuredSeconds = {
  'test/faults/test/database-stall-load.test.ts': 74,
  'test/e2e/test/cli-login.browser.test.ts': 40,
  'test/e2e/test/zero-knowledge.browser.test.ts': 39,
  'test/infra/test/images.test.ts': 36,
  'test/e2e/test/cli.browser.test.ts': 27,
  'test/e2e/test/pages.browser.test.ts': 26,
  'services/identity/test/security/no-takeover.test.ts': 22,
  'test/faults/test/redis-data-loss.test.ts': 22,
  'test/e2e/test/admin-console.browser.test.ts': 22,
  'test/e2e/test/compose-processes.test.ts': 20,
  'test/e2e/test/tracing.test.ts': 19,
  'test/e2e/test/password-reset.browser.test.ts': 18,
  'test/e2e/test/delivery.test.ts': 17,
  'test/e2e/test/web-app.browser.test.ts': 17,
  'test/e2e/test/recipient-only.browser.test.ts': 17,
  'test/e2e/test/secret-requests.browser.test.ts': 17,
  'test/e2e/test/second-factor.browser.test.ts': 16,
  'test/e2e/test/keycloak-js.browser.test.ts': 16,
  'services/secrets/test/security/one-time-read.test.ts': 15,
  'services/identity/test/security/complete-audit.test.ts': 15,
};
