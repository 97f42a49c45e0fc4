/** What a person types on a sign-in page (login, reset, registration), and the room a password manager's long password needs. */
export const LOGIN_FORM_CHARACTERS = 512;
/** The consent and cancel forms hold nothing but their token. */
export const TOKEN_FORM_CHARACTERS = 0;
