import type { Translation } from '@hush/common/i18n';
import type { en } from './en.js';

/** Every word of identity's sign-in pages and the consoles' frame, in German (the English catalogue's keys). */
export const de: Translation<typeof en> = {
  chrome: {
    product: 'Hush',
    productHome: 'Hush, Ihr Konto',
    language: 'Sprache',
    account: 'Angemeldet',
    signOut: 'Abmelden',
  },
  login: {
    title: 'Anmelden',
    heading: 'Bei {client} anmelden',
    username: 'Benutzername',
    password: 'Passwort',
    submit: 'Anmelden',
    forgot: 'Passwort vergessen?',
    register: 'Neu hier? <a>Registrieren</a>',
    cancel: 'Abbrechen',
    invalid: 'Benutzername oder Passwort ist falsch.',
    expired: 'Dieser Schritt ist abgelaufen. Melden Sie sich erneut an.',
    passkeyNeedsScript: 'Die Anmeldung mit einem Passkey braucht JavaScript.',
    passkey: 'Mit einem Passkey anmelden',
  },
  consent: {
    title: '{client} erlauben?',
    asks: '{client} möchte:',
    remembered: 'Ihre Antwort wird gespeichert; Sie können sie unter „Anwendungen“ in <a>Ihrem Konto</a> widerrufen.',
    allow: 'Erlauben',
    deny: 'Ablehnen',
    scope: {
      openid: 'Wissen, dass Sie es sind (die Kennung Ihres Kontos)',
      profile: 'Ihren Namen und Benutzernamen',
      email: 'Ihre E-Mail-Adresse und ob sie bestätigt ist',
      offlineAccess: 'Zugriff behalten, während Sie abgemeldet sind (Offline-Zugriff)',
      secretsRead: 'Die Geheimnisse sehen, die Sie geteilt haben, und mit Ihnen geteilte lesen',
      secretsWrite: 'In Ihrem Namen Geheimnisse teilen und vernichten',
      api: '{api} in Ihrem Namen nutzen ({scope})',
    },
  },
  secondStep: {
    title: 'Zweiter Schritt',
    heading: 'Bei {client} anmelden',
    account: 'Anmeldung als <strong>{username}</strong>. Ihr Konto ist durch einen zweiten Schritt geschützt.',
    attemptsLeft: 'Noch {left, plural, one {# Versuch} other {# Versuche}}, bevor die Anmeldung mit Codes pausiert wird.',
    notYou: 'Nicht Sie? Brechen Sie ab und melden Sie sich neu an.',
    code: 'Code',
    codeHelp: 'Der 6-stellige Code, den Ihre Authenticator-App zeigt, oder einer Ihrer Wiederherstellungscodes.',
    verify: 'Prüfen',
    wrong: 'Dieser Code ist falsch oder wurde schon verwendet.',
  },
  signedOut: {
    title: 'Abgemeldet',
    heading: 'Sie sind abgemeldet',
    body: 'Ihre Sitzung auf diesem Gerät ist beendet.',
    signInAgain: 'Erneut anmelden',
  },
  logout: {
    title: 'Abmelden',
    heading: 'Abmelden?',
    confirm: 'Ja, abmelden',
  },
};
