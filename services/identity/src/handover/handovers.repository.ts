import { isUuid } from '@hush/common';
import type { Db } from '../db/index.js';

export type HandoverKind = 'client_secret' | 'password';

/** The receipt of one handover as identity keeps it: never the credential. */
export interface Handover {
  id: string;
  kind: HandoverKind;
  /** The client's or user's internal id. */
  subjectId: string;
  organizationId: string | null;
  /** As the secrets service obfuscated it. */
  recipient: string;
  metadataKey: string;
  expiresAt: Date;
  /** The administrator (user id or client id) who asked for it. */
  createdBy: string | null;
  createdAt: Date;
}

type Row = {
  id: string;
  kind: HandoverKind;
  subject_id: string;
  organization_id: string | null;
  recipient: string;
  metadata_key: string;
  expires_at: Date;
  created_by: string | null;
  created_at: Date;
};

const toHandover = (r: Row): Handover => ({
  id: r.id,
  kind: r.kind,
  subjectId: r.subject_id,
  organizationId: r.organization_id,
  recipient: r.recipient,
  metadataKey: r.metadata_key,
  expiresAt: r.expires_at,
  createdBy: r.created_by,
  createdAt: r.created_at,
});

export class HandoversRepository {
  constructor(private readonly db: Db) {}

  async create(h: Omit<Handover, 'createdAt'>): Promise<Handover> {
    const [row] = await this.db<Row>('handovers')
      .insert({
        id: h.id,
        kind: h.kind,
        subject_id: h.subjectId,
        organization_id: h.organizationId,
        recipient: h.recipient,
        metadata_key: h.metadataKey,
        expires_at: h.expiresAt,
        created_by: h.createdBy,
      })
      .returning('*');
    return toHandover(row as Row);
  }

  async findById(id: string): Promise<Handover | undefined> {
    if (!isUuid(id)) return undefined;
    const row = await this.db<Row>('handovers').where({ id }).first();
    return row ? toHandover(row) : undefined;
  }

  /** Newest first; of one client or user when `subjectId` is given; within one organization when `organizationId` is. */
  async list(filter: { subjectId?: string | undefined; organizationId?: string | undefined; first?: number | undefined; max?: number | undefined }): Promise<Handover[]> {
    const q = this.db<Row>('handovers').orderBy('created_at', 'desc').orderBy('id');
    if (filter.subjectId !== undefined) q.where({ subject_id: filter.subjectId });
    if (filter.organizationId !== undefined) q.where({ organization_id: filter.organizationId });
    if (filter.first) q.offset(filter.first);
    q.limit(filter.max !== undefined && filter.max >= 0 ? filter.max : 100);
    return (await q).map(toHandover);
  }
}
