import type { SecretsDeps } from '../secrets/deps.js';
import type { ZkFilesRepository } from './files.repository.js';

/** How zero-knowledge files are bounded (FILE_MAX_BYTES, and the windows below). */
export interface ZkSettings {
  /** Largest file content, in bytes (FILE_MAX_BYTES); the upload may be 16 bytes per record more. */
  fileMaxBytes: number;
  /** Seconds an upload waits for the share that attaches it. */
  uploadSeconds: number;
  /** Seconds the reader of a secret with a file has to download it. */
  downloadSeconds: number;
  /** Uploads an account may have neither attached nor expired. */
  maxPendingUploads: number;
  /** E-mails leave through the mailer (DELIVERY_MODE=queue), which alone can open a link key sealed for it. */
  mailerOpensLinkKeys: boolean;
}

export const ZK_DEFAULTS: Omit<ZkSettings, 'fileMaxBytes' | 'mailerOpensLinkKeys'> = { uploadSeconds: 3600, downloadSeconds: 900, maxPendingUploads: 10 };

/** What the zero-knowledge use-cases reach: the secrets' deps, the files and their bounds. */
export interface ZkDeps extends SecretsDeps {
  files: ZkFilesRepository;
  zk: ZkSettings;
}
