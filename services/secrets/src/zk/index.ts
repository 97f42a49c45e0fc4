/*
 * Zero-knowledge secrets (docs/zero-knowledge.md): shared, read, uploaded and downloaded as
 * ciphertext its clients made with keys this service never sees. Routes (http/zk.routes.ts) and
 * pages (web/) call these use-cases; the composition root wires the files' repository.
 */
export { ZK_DEFAULTS, type ZkDeps, type ZkSettings } from './deps.js';
export { ZkFilesRepository } from './files.repository.js';
export { envelopeLimit, shareZk } from './zk-share.js';
export { readZk, zkSecretInfo, type ZkRead, type ZkSecretInfo } from './zk-read.js';
export { downloadFile, uploadFile, uploadLimit, type Upload } from './zk-files.js';
export { answerZkRequest } from './zk-requests.js';
export { zkAnswerInput, zkReadInput, zkShareParser, type ZkAnswerInput, type ZkReadInput, type ZkShareInput } from './zk.params.js';
export {
  openRequestResponse,
  presentOpenRequest,
  presentUpload,
  presentZkRead,
  presentZkSecretInfo,
  zkCreatedFields,
  zkReadResponse,
  zkSecretInfoResponse,
  zkUploadResponse,
} from './zk.presenter.js';
