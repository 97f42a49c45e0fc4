/**
 * Every word of identity's sign-in pages and the consoles' frame, in English: the catalogue every
 * other language follows (ICU MessageFormat; `<strong>`, `<code>` and the tags a page passes,
 * such as `<a>`, mark up parts of a sentence).
 */
export const en = {
  chrome: {
    product: 'Hush',
    productHome: 'Hush, your account',
    language: 'Language',
    account: 'Signed in',
    signOut: 'Sign out',
  },
  login: {
    title: 'Sign in',
    heading: 'Sign in to {client}',
    username: 'Username',
    password: 'Password',
    submit: 'Sign in',
    forgot: 'Forgot password?',
    register: 'New here? <a>Register</a>',
    cancel: 'Cancel',
    invalid: 'Invalid username or password.',
    expired: 'This step has expired. Sign in again.',
    passkeyNeedsScript: 'Signing in with a passkey needs JavaScript.',
    passkey: 'Sign in with a passkey',
  },
  consent: {
    title: 'Allow {client}?',
    asks: '{client} asks to:',
    remembered: 'Your answer is remembered; you can revoke it under Applications in <a>your account</a>.',
    allow: 'Allow',
    deny: 'Deny',
    scope: {
      openid: 'Know that it is you (your account’s identifier)',
      profile: 'Your name and username',
      email: 'Your e-mail address, and whether it is confirmed',
      offlineAccess: 'Keep access while you are signed out (offline access)',
      secretsRead: 'See the secrets you shared and read secrets shared with you',
      secretsWrite: 'Share and burn secrets in your name',
      api: 'Use {api} in your name ({scope})',
    },
  },
  secondStep: {
    title: 'Second step',
    heading: 'Sign in to {client}',
    account: 'Signing in as <strong>{username}</strong>. Your account is protected by a second step.',
    attemptsLeft: '{left, plural, one {# attempt left} other {# attempts left}} before sign-in with codes is paused.',
    notYou: 'Not you? Cancel and sign in again.',
    code: 'Code',
    codeHelp: 'The 6-digit code your authenticator app shows, or one of your recovery codes.',
    verify: 'Verify',
    wrong: 'That code is wrong or was already used.',
  },
  signedOut: {
    title: 'Signed out',
    heading: 'You are signed out',
    body: 'Your session has ended on this device.',
    signInAgain: 'Sign in again',
  },
  logout: {
    title: 'Sign out',
    heading: 'Sign out?',
    confirm: 'Yes, sign me out',
  },
};
