import type { Translation } from '@hush/common/i18n';
import type { en } from './en.js';

/** Every word of the e-mailed account links' pages, in German (the English catalogue's keys). */
export const de: Translation<typeof en> = {
  links: {
    backToSignIn: 'Zurück zur Anmeldung',
    passwordRules: 'Mindestens 8 Zeichen (höchstens {max} Bytes).',
    forgot: {
      title: 'Passwort vergessen?',
      intro:
        'Geben Sie Ihren Benutzernamen oder Ihre E-Mail-Adresse ein. Gehört sie zu einem Konto, senden wir einen Link an die E-Mail-Adresse dieses Kontos, mit dem Sie ein neues Passwort wählen.',
      login: 'Benutzername oder E-Mail',
      submit: 'Link senden',
      tooMany: 'Zu viele Anfragen nach einem neuen Passwort. Versuchen Sie es später erneut.',
    },
    checkEmail: {
      title: 'Sehen Sie in Ihre E-Mails',
      reset:
        'Wenn das der Benutzername oder die Adresse eines Kontos ist, ist ein Link zum Wählen eines neuen Passworts an die E-Mail-Adresse des Kontos unterwegs. Er funktioniert einmal, {minutes, plural, one {# Minute} other {# Minuten}} lang.',
      verify: 'Wenn dieses Konto auf die Bestätigung seiner Adresse wartet, ist ein neuer Bestätigungslink dorthin unterwegs.',
      nothing: 'Nichts angekommen? Sehen Sie im Spam-Ordner nach oder fragen Sie in ein paar Minuten erneut.',
    },
    action: {
      newPassword: 'Neues Passwort wählen',
      confirmAddress: 'E-Mail-Adresse bestätigen',
      update: 'Konto aktualisieren',
      account: 'Konto: <strong>{username}</strong>',
      askedTo: 'Sie werden gebeten:',
      UPDATE_PASSWORD: 'ein neues Passwort zu wählen',
      CONFIGURE_TOTP: 'einen zweiten Anmeldefaktor einzurichten (nach der Anmeldung geht es in Ihrem Konto weiter)',
      VERIFY_EMAIL: 'Ihre E-Mail-Adresse zu bestätigen',
      password: 'Neues Passwort',
      again: 'Neues Passwort wiederholen',
      save: 'Neues Passwort speichern',
      confirm: 'Meine Adresse bestätigen',
      continue: 'Weiter',
      differ: 'Die beiden Passwörter sind verschieden.',
      refused: 'Das Passwort wurde abgelehnt: Es muss mindestens 8 Zeichen und höchstens {max} Bytes haben.',
    },
    unusable: {
      title: 'Link nicht mehr gültig',
      heading: 'Dieser Link funktioniert nicht mehr',
      body: 'Er wurde schon verwendet, ist abgelaufen oder unvollständig.',
      askAgain: 'Einen neuen Link für ein Passwort anfordern',
    },
    done: {
      title: 'Fertig',
      passwordChanged: 'Ihr Passwort wurde geändert. Sie wurden überall sonst abgemeldet.',
      verified: 'Ihre E-Mail-Adresse ist bestätigt.',
      updated: 'Ihr Konto ist aktualisiert.',
      continue: 'Mit der Anmeldung fortfahren',
      app: 'Zurück zur Anwendung',
      account: 'Zu Ihrem Konto',
    },
    register: {
      title: 'Registrieren',
      heading: 'Konto anlegen',
      username: 'Benutzername',
      usernameRules: 'Buchstaben, Ziffern und . _ @ + - (bis zu 64).',
      email: 'E-Mail',
      password: 'Passwort',
      again: 'Passwort wiederholen',
      submit: 'Registrieren',
      tooMany: 'Zu viele Registrierungen von hier. Versuchen Sie es später erneut.',
      emailRequired: 'Eine E-Mail-Adresse ist erforderlich.',
      emailTaken: 'Ein Konto mit dieser E-Mail-Adresse gibt es schon. Melden Sie sich an oder nutzen Sie „Passwort vergessen?“.',
      usernameTaken: 'Dieser Benutzername ist vergeben.',
      usernameInvalid: 'Der Benutzername darf Buchstaben, Ziffern und . _ @ + - enthalten (bis zu 64) und beginnt mit einem Buchstaben oder einer Ziffer.',
      emailInvalid: 'Geben Sie eine gültige E-Mail-Adresse ein.',
      passwordInvalid: 'Das Passwort muss mindestens 8 Zeichen und höchstens {max} Bytes haben.',
      differ: 'Die beiden Passwörter sind verschieden.',
      refused: 'Mit diesen Angaben konnte kein Konto angelegt werden. Prüfen Sie sie und versuchen Sie es erneut.',
    },
    registered: {
      title: 'E-Mail-Adresse bestätigen',
      body: 'Ihr Konto ist angelegt. Wir haben einen Link an Ihre E-Mail-Adresse gesendet: Öffnen Sie ihn, um die Adresse zu bestätigen, und melden Sie sich dann an.',
    },
    verifyFirst: {
      title: 'Zuerst die E-Mail-Adresse bestätigen',
      body: 'Dieses Konto kann sich anmelden, sobald seine E-Mail-Adresse bestätigt ist: Öffnen Sie den Link, den wir dorthin gesendet haben.',
      resend: 'Link erneut senden',
    },
  },
};
