import { z } from 'zod';
import { mailLocale } from './mail-locale.js';

/** What a creator can be told about: the secret was read, burned, or expired unread. */
export const NOTIFY_EVENTS = ['revealed', 'burned', 'expired'] as const;
export type NotifyEvent = (typeof NOTIFY_EVENTS)[number];

/**
 * What a creator is told about without choosing it: someone who is not the recipient of a
 * recipient-only secret tried to open it (rate-limited per secret by the producer).
 */
export const NOTIFICATION_EVENTS = [...NOTIFY_EVENTS, 'refused'] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

/**
 * An e-mail to a secret's creator about what happened to it. It travels on the secret-link queue
 * as its own job type (`kind`), sealed like the link e-mails, and carries neither the secret, its
 * key nor any link: only the receipt's short key, so the creator can tell which secret it was.
 */
export const notificationJob = z.object({
  version: z.literal(1),
  kind: z.literal('notification'),
  deliveryId: z.string().min(1).max(100),
  to: z.email(),
  event: z.enum(NOTIFICATION_EVENTS),
  /** The first characters of the receipt's key (as in My secrets): names the secret without opening anything. */
  shortkey: z.string().min(1).max(20),
  /** Unix seconds of the event. */
  at: z.number().int(),
  /** The e-mail's language (mail-locale.ts); absent: English. */
  locale: mailLocale,
});
export type NotificationJob = z.infer<typeof notificationJob>;
