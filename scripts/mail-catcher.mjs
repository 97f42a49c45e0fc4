// A local mail catcher for development: accepts every message on SMTP (default 127.0.0.1:1025)
// and shows them in a web inbox (default http://127.0.0.1:8025). Nothing leaves the machine.
// Used by `pnpm start` when no SMTP_URL is configured.
import { createServer } from 'node:http';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';

export function startMailCatcher({ smtpPort = 1025, webPort = 8025, host = '127.0.0.1' } = {}) {
  const messages = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          messages.unshift({ id: messages.length + 1, at: new Date(), from: mail.from?.text ?? '', to: mail.to?.text ?? '', subject: mail.subject ?? '', text: mail.text ?? '' });
          callback();
        })
        .catch(callback);
    },
  });
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
  const web = createServer((req, res) => {
    if (req.url === '/api/messages') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(messages));
      return;
    }
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.setHeader('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
    res.end(`<!doctype html><meta charset="utf-8"><title>Hush mail catcher</title>
<style>body{font-family:system-ui;margin:2rem;max-width:50rem}article{border:1px solid #ccc;border-radius:6px;padding:1rem;margin:1rem 0}pre{white-space:pre-wrap}</style>
<h1>Local inbox (${messages.length})</h1><p>Every e-mail the mailer sends locally lands here. JSON: <code>/api/messages</code></p>
${messages.map((m) => `<article><b>${esc(m.subject)}</b><br>To: ${esc(m.to)} · From: ${esc(m.from)} · ${esc(m.at.toISOString())}<pre>${esc(m.text)}</pre></article>`).join('')}`);
  });
  return new Promise((resolve, reject) => {
    smtp.on('error', reject);
    smtp.listen(smtpPort, host, () => {
      web.listen(webPort, host, () => resolve({ messages, close: () => Promise.all([new Promise((r) => smtp.close(r)), new Promise((r) => web.close(r))]) }));
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const catcher = await startMailCatcher();
  process.stdout.write('mail catcher: SMTP 127.0.0.1:1025, inbox http://127.0.0.1:8025\n');
  process.on('SIGTERM', () => catcher.close().then(() => process.exit(0)));
}
