import { staticMigrations } from '@hush/common';
import * as initial from '../../migrations/20261122000000_initial.js';
import * as clientsNotify from '../../migrations/20261122010000_clients_notify.js';
import * as hashArtifactIds from '../../migrations/20261123000000_hash_artifact_ids.js';
import * as rs256KeysClientTokenSettings from '../../migrations/20261124000000_rs256_keys_client_token_settings.js';
import * as clientsWebOrigins from '../../migrations/20261201000000_clients_web_origins.js';
import * as adminApi from '../../migrations/20261210000000_admin_api.js';
import * as events from '../../migrations/20261210010000_events.js';
import * as replaceRefreshTokens from '../../migrations/20261210020000_replace_refresh_tokens.js';
import * as consoleClients from '../../migrations/20261220000000_console_clients.js';
import * as handovers from '../../migrations/20261220010000_handovers.js';
import * as secondFactor from '../../migrations/20261221000000_second_factor.js';
import * as accountActions from '../../migrations/20261226040000_account_actions.js';
import * as scaleIndexes from '../../migrations/20270210000000_scale_indexes.js';
import * as actionTokensSentTo from '../../migrations/20261227000000_action_tokens_sent_to.js';
import * as cliClient from '../../migrations/20270301000000_cli_client.js';
import * as consents from '../../migrations/20270401000000_consents.js';
import * as usersLocale from '../../migrations/20270501000000_users_locale.js';
import * as sortIndexes from '../../migrations/20270502000000_sort_indexes.js';
import * as mailOutboxTraceContext from '../../migrations/20270510000000_mail_outbox_trace_context.js';
import * as userCounts from '../../migrations/20270520000000_user_counts.js';
import * as eventFilterIndexes from '../../migrations/20270520010000_event_filter_indexes.js';
import * as userSearchIndexes from '../../migrations/20270601000000_user_search_indexes.js';

/** This service's migrations, by name. Add new ones here; never edit one that has landed. */
export const migrationSource = staticMigrations({
  '20261122000000_initial': initial,
  '20261122010000_clients_notify': clientsNotify,
  '20261123000000_hash_artifact_ids': hashArtifactIds,
  '20261124000000_rs256_keys_client_token_settings': rs256KeysClientTokenSettings,
  '20261201000000_clients_web_origins': clientsWebOrigins,
  '20261210000000_admin_api': adminApi,
  '20261210010000_events': events,
  '20261210020000_replace_refresh_tokens': replaceRefreshTokens,
  '20261220000000_console_clients': consoleClients,
  '20261220010000_handovers': handovers,
  '20261221000000_second_factor': secondFactor,
  '20261226040000_account_actions': accountActions,
  '20270210000000_scale_indexes': scaleIndexes,
  '20261227000000_action_tokens_sent_to': actionTokensSentTo,
  '20270301000000_cli_client': cliClient,
  '20270401000000_consents': consents,
  '20270501000000_users_locale': usersLocale,
  '20270502000000_sort_indexes': sortIndexes,
  '20270510000000_mail_outbox_trace_context': mailOutboxTraceContext,
  '20270520000000_user_counts': userCounts,
  '20270520010000_event_filter_indexes': eventFilterIndexes,
  '20270601000000_user_search_indexes': userSearchIndexes,
});
