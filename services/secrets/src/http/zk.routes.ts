import { z } from 'zod';
import { SCOPES } from '../auth/principal.js';
import { principalOf } from '../auth/authenticate.js';
import { openRequest } from '../secrets/requests.js';
import { answeredRequestResponse } from '../secrets/requests.presenter.js';
import {
  answerZkRequest,
  downloadFile,
  openRequestResponse,
  presentOpenRequest,
  presentUpload,
  presentZkRead,
  presentZkSecretInfo,
  readZk,
  shareZk,
  uploadFile,
  zkAnswerInput,
  zkReadInput,
  zkReadResponse,
  zkSecretInfo,
  zkSecretInfoResponse,
  zkShareParser,
  zkUploadResponse,
} from '../zk/index.js';
import { defineRoute, readerOf, type ApiRoute } from './api-route.js';

/**
 * The zero-knowledge routes (docs/zero-knowledge.md): the client encrypts, the key stays in the
 * link's fragment, and these routes take and give back only ciphertext, verifiers and proofs.
 * Part of the API's route table (api.routes.ts), in both dialects (Onetime Secret has none).
 */

const SECRET_KEY = { key: { name: 'secret_key', description: 'The secret key (the path of its link)', subject: true } } as const;

const zkShare = defineRoute({
  operationId: 'zkShare',
  summary: "Store a secret its client encrypted (docs/zero-knowledge.md): the envelope and the verifiers, optionally an uploaded file, and a share's options.",
  methods: ['post'],
  path: '/zk/share',
  credentials: { accept: 'anonymous', scopes: [SCOPES.write] },
  rateLimit: 'account',
  input: (_inputs, _dialect, ttl) => zkShareParser(ttl),
  ok: { schema: 'ZkSecret', description: 'The secret object, with `link` (append "#" and the key)' },
  errors: {
    '400': 'Bad input (envelope, verifiers, ttl, recipient...); account_required for a file without an account',
    '404': 'unknown_file: the upload is not the caller’s, complete and unshared',
    '413': 'The envelope is larger than the plan allows',
  },
  async handle({ zk, dialect }, input, req, res) {
    const created = await shareZk(zk, principalOf(res), input);
    return { ...dialect.created(created), zero_knowledge: true, link: `${zk.settings.baseUrl}/secret/${created.secretKey}` };
  },
});

const zkUpload = defineRoute({
  operationId: 'zkUpload',
  summary: 'Upload the encrypted records of a file, to attach to a zero-knowledge share within the hour. Streamed: at most FILE_MAX_BYTES of content.',
  methods: ['post'],
  path: '/zk/files',
  credentials: { accept: 'required', scopes: [SCOPES.write] },
  rateLimit: 'account',
  readsBody: false,
  rawBody: { contentType: 'application/octet-stream', description: 'The file’s encrypted records, one after the other (docs/zero-knowledge.md)' },
  ok: { status: 201, schema: { inline: zkUploadResponse }, description: 'The upload' },
  errors: {
    '400': 'file_required: an empty body',
    '413': 'file_too_large',
    '415': 'unsupported_media_type: the body is not application/octet-stream',
    '429': 'too_many_uploads: too many uploads not yet shared; or rate limited',
  },
  handle: async ({ zk }, _input, req, res) => presentUpload(await uploadFile(zk, principalOf(res), req)),
});

const zkDownload = defineRoute({
  operationId: 'zkDownload',
  summary: 'The encrypted records of the file of a zero-knowledge secret just read; the path holds the download token its read answered. Deleted once downloaded.',
  methods: ['get'],
  path: '/zk/files/:token',
  params: { token: { name: 'download_token', description: 'The token in the read’s file.url' } },
  credentials: { accept: 'optional', scopes: [] },
  rateLimit: 'ip',
  readsBody: false,
  ok: { schema: { inline: z.string() }, stream: 'application/octet-stream', description: 'The encrypted records' },
  errors: { '404': 'unknown_file: unknown, already downloaded or expired' },
  handle: ({ zk }, _input, req, res) => downloadFile(zk, String(req.params['token']), res),
});

const zkInfo = defineRoute({
  operationId: 'zkSecretInfo',
  summary: 'What reading a zero-knowledge secret needs (passphrase, recipient, wrapped key, file size). Consumes nothing; no credentials needed.',
  methods: ['get'],
  path: '/zk/secret/:key',
  params: SECRET_KEY,
  credentials: { accept: 'optional', scopes: [] },
  rateLimit: 'ip',
  readsBody: false,
  ok: { schema: { inline: zkSecretInfoResponse }, description: 'The secret’s needs' },
  errors: { '400': 'not_zero_knowledge: a secret encrypted by this service', '404': 'Unknown, read, burned or expired' },
  handle: async ({ zk }, _input, req) => presentZkSecretInfo(await zkSecretInfo(zk, String(req.params['key']))),
});

const zkRead = defineRoute({
  operationId: 'zkRead',
  summary: 'Read a zero-knowledge secret, once, with the proof of its key (and of its passphrase). A wrong proof changes nothing.',
  methods: ['post'],
  path: '/zk/secret/:key',
  params: SECRET_KEY,
  credentials: { accept: 'optional', scopes: [] },
  rateLimit: 'ip',
  input: () => zkReadInput,
  ok: { schema: { inline: zkReadResponse }, description: 'The envelope (the secret is gone), and its file’s download' },
  errors: {
    '400': 'not_zero_knowledge: a secret encrypted by this service; bad proofs',
    '401': 'passphrase_required or passphrase_incorrect (counted: the attempt that reaches the limit destroys the secret)',
    '403': 'wrong_key: the key proof is not the secret’s (nothing changes); secret_for_another_account, secret_for_recipient (nothing is consumed)',
    '404': 'Unknown, read, burned or expired',
  },
  handle: async ({ zk }, input, req, res) =>
    presentZkRead(await readZk(zk, String(req.params['key']), input, readerOf(principalOf(res))), (token) => `${req.baseUrl}/zk/files/${token}`),
});

const requestInfo = defineRoute({
  operationId: 'requestInfo',
  summary: 'What an open request asks for (label, requester, passphrase policy, length; a zero-knowledge request’s public key). Consumes nothing.',
  methods: ['get'],
  path: '/request/:key',
  params: { key: { name: 'request_key', description: 'The key of the request link', subject: true } },
  credentials: { accept: 'optional', scopes: [] },
  rateLimit: 'ip',
  readsBody: false,
  ok: { schema: { inline: openRequestResponse }, description: 'The open request' },
  errors: { '404': 'Unknown, answered, cancelled or expired request' },
  handle: async ({ zk }, _input, req) => presentOpenRequest(await openRequest(zk, String(req.params['key']))),
});

const zkAnswer = defineRoute({
  operationId: 'zkAnswerRequest',
  summary: 'Send the secret a zero-knowledge request asks for: encrypted by the sender’s client, its key wrapped for the request’s public key. The link is then spent.',
  methods: ['post'],
  path: '/zk/request/:key',
  params: { key: { name: 'request_key', description: 'The key of the request link', subject: true } },
  credentials: { accept: 'optional', scopes: [] },
  rateLimit: 'ip',
  input: () => zkAnswerInput,
  ok: { status: 201, schema: { inline: answeredRequestResponse }, description: 'Stored for the requester, who alone can read it' },
  errors: {
    '400': 'Bad input; a passphrase the request requires or refuses; not_zero_knowledge: the request has no public key',
    '404': 'Unknown, answered, cancelled or expired request',
    '413': 'Longer than the requester’s plan allows',
  },
  handle: async ({ zk }, input, req) => ({ status: 'sent', ...(await answerZkRequest(zk, String(req.params['key']), input)) }),
});

export const ZK_ROUTES: readonly ApiRoute[] = [zkShare, zkUpload, zkDownload, zkInfo, zkRead, requestInfo, zkAnswer];
