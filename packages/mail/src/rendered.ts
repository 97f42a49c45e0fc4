import { mailMessages } from './messages/index.js';

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

/** "Thursday, 1 January 2026 at 12:30 UTC" (in English): absolute, as the mail may be read much later than sent. */
export function formatExpiry(expiresAt: number): string {
  return mailMessages('en').dateTime(expiresAt);
}
