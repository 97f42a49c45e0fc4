import { CSRF_FIELD, html, type Html } from '@hush/common';

/** The hidden CSRF field every form of identity's pages carries (its token checked by the page forms helper or the console session). */
export const csrfField = (csrf: string): Html => html`<input type="hidden" name="${CSRF_FIELD}" value="${csrf}">`;
