import { renderSecretLinkEmail } from './secret-link.js';

const view = {
  sender: 'hush-handover',
  link: 'https://hush.example/secret/abc123',
  passphraseRequired: false,
  expiresAt: Date.UTC(2026, 0, 1, 12, 30) / 1000,
};

describe('the e-mail of a handed-over credential', () => {
  test('a client secret: its subject names the client, the body who handed it over and what to do', () => {
    const email = renderSecretLinkEmail({ ...view, handover: { kind: 'client_secret', name: 'Reports exporter', id: 'reports-exporter', by: 'Ada Admin' } });
    expect(email.subject).toBe('The client secret of Reports exporter');
    expect(email.text).toContain('Ada Admin handed over the client secret of Reports exporter (reports-exporter) to you');
    expect(email.html).toContain('the client secret of <strong>Reports exporter</strong> (<code>reports-exporter</code>)');
    expect(email.text).toContain('configuration of the application that signs in as this client');
    expect(email.text).toContain(view.link);
    expect(email.subject).not.toContain('hush-handover');
  });

  test('a first password names the account; without `by`, the sender stands for who handed it over', () => {
    const email = renderSecretLinkEmail({ ...view, handover: { kind: 'first_password', name: 'ops-oncall' } });
    expect(email.subject).toBe('Your first password for the account ops-oncall');
    expect(email.text).toContain('hush-handover handed over your first password for the account ops-oncall to you');
    expect(email.text).toContain('choose a password of your own');
  });

  test('in German, with the label escaped in the HTML', () => {
    const email = renderSecretLinkEmail({ ...view, locale: 'de', handover: { kind: 'password', name: '<b>ops</b>', by: 'Ada' } });
    expect(email.subject).toBe('Ein neues Passwort für das Konto <b>ops</b>');
    expect(email.text).toContain('Ada hat Ihnen ein neues Passwort für das Konto <b>ops</b> übergeben');
    expect(email.html).toContain('&lt;b&gt;ops&lt;/b&gt;');
    expect(email.html).not.toContain('<b>ops</b>');
    expect(email.text).toContain('Das bisherige Passwort gilt nicht mehr.');
  });

  test('a job without a language, or with one we do not write, is English', () => {
    expect(renderSecretLinkEmail(view).subject).toBe('hush-handover sent you a secret');
    expect(renderSecretLinkEmail({ ...view, locale: 'fr' }).subject).toBe('hush-handover sent you a secret');
    expect(renderSecretLinkEmail({ ...view, locale: 'de' }).subject).toBe('hush-handover hat Ihnen ein Geheimnis geschickt');
  });
});
