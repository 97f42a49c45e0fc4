import type { NotifyEvent } from '@hush/queue';

/** The notification boxes of the share page and of the settings, in this order and wording. */
export const NOTIFY_CHOICES: readonly (readonly [NotifyEvent, string])[] = [
  ['revealed', 'it is read'],
  ['burned', 'it is burned'],
  ['expired', 'it expires unread'],
];
