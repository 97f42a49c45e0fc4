/**
 * Every word of our e-mails, in English: the catalogue every other language follows (ICU
 * MessageFormat; `<strong>`, `<em>` and `<code>` mark emphasis, dropped in the text part).
 */
export const en = {
  common: {
    someone: 'Someone',
    copyLink: 'Or copy this link into your browser:',
    notExpected: 'If you did not expect this e-mail, you can ignore it.',
    footer: 'Sent by Hush, on behalf of the person named above.',
  },
  secretLink: {
    subject: '{sender} sent you a secret',
    intro: '<strong>{sender}</strong> sent you a secret.',
    openText: 'Open this link to read it:',
    button: 'Open the secret',
    once: 'The link works <strong>only once</strong>: after you read the secret, it is deleted. It expires on {expires}.',
    passphrase: 'You need a passphrase to read it. {sender} will give it to you separately; it is not in this e-mail.',
    noPassphrase: 'No passphrase is needed to read it.',
    recipientOnly: 'It is for this address only: to read it, sign in to Hush with an account of this address, or ask the page for a one-time code sent here.',
    keyApart:
      '{sender} encrypted it before sending it, and its key is not in this e-mail (nor did our server ever have it): {sender} will give you the full link, or its key, separately.',
    pressButton: 'Opening the link does not reveal the secret yet; you will press a button to see it.',
  },
  handover: {
    subject:
      '{kind, select, client_secret {The client secret of {name}} first_password {Your first password for the account {name}} other {A new password for the account {name}}}',
    what: '{kind, select, client_secret {the client secret of <strong>{name}</strong>} first_password {your first password for the account <strong>{name}</strong>} other {a new password for the account <strong>{name}</strong>}}',
    whatWithId:
      '{kind, select, client_secret {the client secret of <strong>{name}</strong> (<code>{id}</code>)} first_password {your first password for the account <strong>{name}</strong> (<code>{id}</code>)} other {a new password for the account <strong>{name}</strong> (<code>{id}</code>)}}',
    intro: '<strong>{by}</strong> handed over {what} to you, as a secret you can read once.',
    button: 'Open the secret',
    todo: '{kind, select, client_secret {Put it into the configuration of the application that signs in as this client. This link holds the only copy: nobody, not even the administrator, can read it again. If it is lost, ask for a new one.} first_password {Sign in to the account with it, then choose a password of your own.} other {Sign in to the account with it, then choose a password of your own. The previous password no longer works.}}',
    notExpected: 'If you did not expect this e-mail, do not open the link: tell {by} or your administrator.',
  },
  recipientCode: {
    subject: 'Your code to read the secret from {sender}',
    intro: 'Your one-time code to read the secret <strong>{sender}</strong> sent you:',
    enter: 'Enter it on the page where you asked for it. It works once, until {expires}.',
    notAsked: 'If you did not ask for a code, someone else has the link to a secret meant for you: you can ignore this e-mail, the secret stays closed to them.',
  },
  notification: {
    subject:
      '{event, select, revealed {Your secret was opened and read} burned {Your secret was burned before anyone read it} expired {Your secret expired without being read} other {Your secret was refused to someone who is not its recipient}}',
    body: '{event, select, revealed {Your secret with the receipt <strong>{shortkey}…</strong> was opened and read on {when}.} burned {Your secret with the receipt <strong>{shortkey}…</strong> was burned before anyone read it, on {when}.} expired {Your secret with the receipt <strong>{shortkey}…</strong> expired without being read on {when}.} other {Your secret with the receipt <strong>{shortkey}…</strong> was refused to someone who is not its recipient on {when}.}}',
    gone: 'Its content is gone from Hush. Its receipt, under My secrets, shows what happened to it.',
    stillThere: 'Nothing was revealed and the secret is still there for its recipient. Its receipt, under My secrets, shows whether it has been read.',
    askedNote: 'You receive this e-mail because you asked to be told when you shared the secret.',
    refusedNote: 'You receive this e-mail because the secret is for one recipient only. Further refused attempts on it are reported at most once every few minutes.',
  },
  secretRequest: {
    subject: '{requester} asks you for a secret',
    intro: '<strong>{requester}</strong> asks you for a secret: <strong>{label}</strong>',
    openText: 'Open this link to send it:',
    button: 'Send the secret',
    once: 'The link takes one secret, once, until {expires}. Only {requester} can read what you send, once.',
    noReply: 'Do not reply to this e-mail with the secret.',
  },
  accountLink: {
    account: 'Account: <strong>{username}</strong>',
    once: 'The link works <strong>only once</strong> and expires on {expires}.',
    resetPassword: {
      subject: 'Reset your password',
      ask: 'Someone, hopefully you, asked to reset the password of your account. Open this link to choose a new one:',
      button: 'Choose a new password',
      ignore: 'If you did not ask for this, ignore this e-mail: your password stays as it is.',
    },
    verifyEmail: {
      subject: 'Confirm your e-mail address',
      ask: 'Confirm the e-mail address of your new account by opening this link; you can sign in afterwards:',
      button: 'Confirm my address',
      ignore: 'If you did not create this account, ignore this e-mail: it cannot be used without this confirmation.',
    },
    executeActions: {
      subject: 'Update your account',
      ask: 'Your administrator asks you to {actions}. Open this link to do so:',
      askAnything: 'Your administrator asks you to update your account. Open this link to do so:',
      then: '{first}, then {next}',
      button: 'Update my account',
      ignore: 'If you did not expect this e-mail, ask your administrator before opening the link.',
    },
    actions: {
      UPDATE_PASSWORD: 'choose a new password',
      CONFIGURE_TOTP: 'set up a second sign-in factor (an authenticator app)',
      VERIFY_EMAIL: 'confirm your e-mail address',
    },
  },
};
