import { staticMigrations } from '@hush/common';
import * as initial from '../../migrations/20261201000000_initial.js';
import * as outboxUntilOutcome from '../../migrations/20261215000000_outbox_until_outcome.js';
import * as metadataDialectFields from '../../migrations/20261220000000_metadata_dialect_fields.js';
import * as webSessions from '../../migrations/20261230000000_web_sessions.js';
import * as secretRequestsAndReceipts from '../../migrations/20270105000000_secret_requests_and_receipts.js';
import * as notifications from '../../migrations/20270110000000_notifications.js';
import * as recipientOnly from '../../migrations/20270115000000_recipient_only.js';
import * as keyFingerprints from '../../migrations/20270201000000_key_fingerprints.js';
import * as sweepIndexes from '../../migrations/20270210000000_sweep_indexes.js';
import * as zeroKnowledge from '../../migrations/20270301000000_zero_knowledge.js';
import * as handoverLabels from '../../migrations/20270401000000_handover_labels.js';
import * as outboxTraceContext from '../../migrations/20270401000000_outbox_trace_context.js';

/** This service's migrations, by name. Add new ones here; never edit one that has landed. */
export const migrationSource = staticMigrations({
  '20261201000000_initial': initial,
  '20261215000000_outbox_until_outcome': outboxUntilOutcome,
  '20261220000000_metadata_dialect_fields': metadataDialectFields,
  '20261230000000_web_sessions': webSessions,
  '20270105000000_secret_requests_and_receipts': secretRequestsAndReceipts,
  '20270110000000_notifications': notifications,
  '20270115000000_recipient_only': recipientOnly,
  '20270201000000_key_fingerprints': keyFingerprints,
  '20270210000000_sweep_indexes': sweepIndexes,
  '20270301000000_zero_knowledge': zeroKnowledge,
  '20270401000000_handover_labels': handoverLabels,
  '20270401000000_outbox_trace_context': outboxTraceContext,
});
