import type { Translation } from '@hush/common/i18n';
import type { en } from './en.js';

/** Every word of our e-mails, in German (formal address, as mail from a service is written). */
export const de: Translation<typeof en> = {
  common: {
    someone: 'Jemand',
    copyLink: 'Oder kopieren Sie diesen Link in Ihren Browser:',
    notExpected: 'Wenn Sie diese E-Mail nicht erwartet haben, können Sie sie ignorieren.',
    footer: 'Von Hush im Auftrag der oben genannten Person verschickt.',
  },
  secretLink: {
    subject: '{sender} hat Ihnen ein Geheimnis geschickt',
    intro: '<strong>{sender}</strong> hat Ihnen ein Geheimnis geschickt.',
    openText: 'Öffnen Sie diesen Link, um es zu lesen:',
    button: 'Geheimnis öffnen',
    once: 'Der Link funktioniert <strong>nur ein einziges Mal</strong>: Sobald Sie das Geheimnis gelesen haben, wird es gelöscht. Er läuft am {expires} ab.',
    passphrase: 'Zum Lesen brauchen Sie eine Passphrase. {sender} teilt sie Ihnen auf anderem Weg mit; in dieser E-Mail steht sie nicht.',
    noPassphrase: 'Zum Lesen ist keine Passphrase nötig.',
    recipientOnly:
      'Es ist nur für diese Adresse bestimmt: Melden Sie sich zum Lesen bei Hush mit einem Konto dieser Adresse an, oder lassen Sie sich auf der Seite einen Einmalcode an diese Adresse schicken.',
    keyApart:
      '{sender} hat es vor dem Versand verschlüsselt, und der Schlüssel steht nicht in dieser E-Mail (auch unser Server hatte ihn nie): {sender} gibt Ihnen den vollständigen Link oder den Schlüssel auf anderem Weg.',
    pressButton: 'Das Öffnen des Links zeigt das Geheimnis noch nicht an; dafür drücken Sie erst einen Knopf.',
  },
  handover: {
    subject:
      '{kind, select, client_secret {Das Client-Secret von {name}} first_password {Ihr erstes Passwort für das Konto {name}} other {Ein neues Passwort für das Konto {name}}}',
    what: '{kind, select, client_secret {das Client-Secret von <strong>{name}</strong>} first_password {Ihr erstes Passwort für das Konto <strong>{name}</strong>} other {ein neues Passwort für das Konto <strong>{name}</strong>}}',
    whatWithId:
      '{kind, select, client_secret {das Client-Secret von <strong>{name}</strong> (<code>{id}</code>)} first_password {Ihr erstes Passwort für das Konto <strong>{name}</strong> (<code>{id}</code>)} other {ein neues Passwort für das Konto <strong>{name}</strong> (<code>{id}</code>)}}',
    intro: '<strong>{by}</strong> hat Ihnen {what} übergeben, als Geheimnis, das Sie einmal lesen können.',
    button: 'Geheimnis öffnen',
    todo: '{kind, select, client_secret {Tragen Sie es in die Konfiguration der Anwendung ein, die sich als dieser Client anmeldet. Dieser Link enthält die einzige Kopie: Niemand, auch nicht die Administration, kann es noch einmal lesen. Geht es verloren, fordern Sie ein neues an.} first_password {Melden Sie sich damit bei dem Konto an und wählen Sie danach ein eigenes Passwort.} other {Melden Sie sich damit bei dem Konto an und wählen Sie danach ein eigenes Passwort. Das bisherige Passwort gilt nicht mehr.}}',
    notExpected: 'Wenn Sie diese E-Mail nicht erwartet haben, öffnen Sie den Link nicht, sondern wenden Sie sich an {by} oder Ihre Administration.',
  },
  recipientCode: {
    subject: 'Ihr Code zum Lesen des Geheimnisses von {sender}',
    intro: 'Ihr Einmalcode zum Lesen des Geheimnisses, das <strong>{sender}</strong> Ihnen geschickt hat:',
    enter: 'Geben Sie ihn auf der Seite ein, auf der Sie ihn angefordert haben. Er gilt ein einziges Mal, bis {expires}.',
    notAsked:
      'Wenn Sie keinen Code angefordert haben, hat jemand anderes den Link zu einem Geheimnis, das für Sie bestimmt ist: Sie können diese E-Mail ignorieren, das Geheimnis bleibt für diese Person verschlossen.',
  },
  notification: {
    subject:
      '{event, select, revealed {Ihr Geheimnis wurde geöffnet und gelesen} burned {Ihr Geheimnis wurde vernichtet, bevor es jemand gelesen hat} expired {Ihr Geheimnis ist ungelesen abgelaufen} other {Ihr Geheimnis wurde jemandem verweigert, der nicht der Empfänger ist}}',
    body: '{event, select, revealed {Ihr Geheimnis mit dem Beleg <strong>{shortkey}…</strong> wurde am {when} geöffnet und gelesen.} burned {Ihr Geheimnis mit dem Beleg <strong>{shortkey}…</strong> wurde am {when} vernichtet, bevor es jemand gelesen hat.} expired {Ihr Geheimnis mit dem Beleg <strong>{shortkey}…</strong> ist am {when} ungelesen abgelaufen.} other {Ihr Geheimnis mit dem Beleg <strong>{shortkey}…</strong> wurde am {when} jemandem verweigert, der nicht der Empfänger ist.}}',
    gone: 'Sein Inhalt ist aus Hush gelöscht. Sein Beleg unter „Meine Geheimnisse“ zeigt, was damit geschehen ist.',
    stillThere: 'Es wurde nichts preisgegeben, und das Geheimnis wartet weiter auf seinen Empfänger. Sein Beleg unter „Meine Geheimnisse“ zeigt, ob es gelesen wurde.',
    askedNote: 'Sie erhalten diese E-Mail, weil Sie beim Teilen des Geheimnisses darum gebeten haben.',
    refusedNote: 'Sie erhalten diese E-Mail, weil das Geheimnis nur für einen Empfänger bestimmt ist. Weitere verweigerte Versuche melden wir höchstens alle paar Minuten.',
  },
  secretRequest: {
    subject: '{requester} bittet Sie um ein Geheimnis',
    intro: '<strong>{requester}</strong> bittet Sie um ein Geheimnis: <strong>{label}</strong>',
    openText: 'Öffnen Sie diesen Link, um es zu senden:',
    button: 'Geheimnis senden',
    once: 'Über den Link lässt sich ein einziges Geheimnis senden, einmal, bis {expires}. Nur {requester} kann lesen, was Sie senden, und nur einmal.',
    noReply: 'Antworten Sie auf diese E-Mail nicht mit dem Geheimnis.',
  },
  accountLink: {
    account: 'Konto: <strong>{username}</strong>',
    once: 'Der Link funktioniert <strong>nur ein einziges Mal</strong> und läuft am {expires} ab.',
    resetPassword: {
      subject: 'Passwort zurücksetzen',
      ask: 'Jemand, hoffentlich Sie, hat verlangt, das Passwort Ihres Kontos zurückzusetzen. Öffnen Sie diesen Link, um ein neues zu wählen:',
      button: 'Neues Passwort wählen',
      ignore: 'Wenn Sie das nicht verlangt haben, ignorieren Sie diese E-Mail: Ihr Passwort bleibt, wie es ist.',
    },
    verifyEmail: {
      subject: 'Bestätigen Sie Ihre E-Mail-Adresse',
      ask: 'Bestätigen Sie die E-Mail-Adresse Ihres neuen Kontos, indem Sie diesen Link öffnen; danach können Sie sich anmelden:',
      button: 'Adresse bestätigen',
      ignore: 'Wenn Sie dieses Konto nicht angelegt haben, ignorieren Sie diese E-Mail: Ohne diese Bestätigung lässt es sich nicht nutzen.',
    },
    executeActions: {
      subject: 'Aktualisieren Sie Ihr Konto',
      ask: 'Ihre Administration bittet Sie, {actions}. Öffnen Sie dazu diesen Link:',
      askAnything: 'Ihre Administration bittet Sie, Ihr Konto zu aktualisieren. Öffnen Sie dazu diesen Link:',
      then: '{first} und danach {next}',
      button: 'Konto aktualisieren',
      ignore: 'Wenn Sie diese E-Mail nicht erwartet haben, fragen Sie Ihre Administration, bevor Sie den Link öffnen.',
    },
    actions: {
      UPDATE_PASSWORD: 'ein neues Passwort zu wählen',
      CONFIGURE_TOTP: 'einen zweiten Anmeldefaktor (eine Authenticator-App) einzurichten',
      VERIFY_EMAIL: 'Ihre E-Mail-Adresse zu bestätigen',
    },
  },
};
