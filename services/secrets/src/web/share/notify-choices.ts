import { NOTIFY_EVENTS } from '@hush/queue';

/** The notification boxes of the share page and of the settings, in this order (their words: `share.notify.<event>`). */
export const NOTIFY_CHOICES = NOTIFY_EVENTS;
