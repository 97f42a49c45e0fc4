import type { Logger, PageForms } from '@hush/common';
import type { RateLimiter } from '../../http/rate-limit.js';
import type { SecretsDeps } from '../../secrets/deps.js';
import type { ZkDeps } from '../../zk/index.js';

/** What the page features share: the secrets use-cases, the service's forms (one CSRF key), the limiter, the log. */
export interface PageContext {
  secrets: SecretsDeps;
  /** The zero-knowledge use-cases' deps (zk/). */
  zk: ZkDeps;
  /** The pages' zero-knowledge script (web/zk), as pages load it. */
  script: { src: string; integrity: string };
  /** BASE_URL: links in pages and the origin forms must come from. */
  baseUrl: string;
  forms: PageForms;
  limiter: RateLimiter;
  logger: Logger;
}
