import request, { type Response } from 'supertest';
import { parseForms } from './html.js';

/**
 * A minimal user agent over real HTTP (supertest against a running server): keeps cookies,
 * follows redirects by hand, and stops at the first redirect that leaves `origin` (for an OIDC
 * server, the client's redirect_uri), as a browser would hand that URL to the other application.
 */
export class Browser {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly origin: string) {}

  /** The value of a cookie the server set (e.g. oidc-provider's `_session`). */
  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  /** One request, no redirect followed: a GET, or a form POST when `form` is given. */
  async send(url: string, form?: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    const target = new URL(url, this.origin);
    const path = `${target.pathname}${target.search}`;
    const agent = request(target.origin);
    const req = (form ? agent.post(path).type('form').send(form) : agent.get(path)).redirects(0).set(headers);
    if (this.cookies.size) req.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await req;
    for (const line of (res.headers['set-cookie'] as string[] | undefined) ?? []) {
      const [pair, ...attrs] = line.split(';');
      const eq = (pair as string).indexOf('=');
      const name = (pair as string).slice(0, eq).trim();
      const value = (pair as string).slice(eq + 1).trim();
      const expired = attrs.some((a) => /max-age=0/i.test(a) || /expires=thu, 01 jan 1970/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  /** GET (or POST `form`), then follow same-origin redirects; returns the final page or the outbound redirect. */
  async navigate(url: string, form?: Record<string, string>): Promise<{ res: Response; url: string; html: string; leftTo?: string }> {
    let res = await this.send(url, form);
    let current = new URL(url, this.origin).toString();
    for (let hops = 0; hops < 10 && res.status >= 300 && res.status < 400; hops++) {
      const location = new URL(res.headers['location'] as string, current).toString();
      if (!location.startsWith(this.origin)) return { res, url: current, html: '', leftTo: location };
      current = location;
      res = await this.send(location);
    }
    return { res, url: current, html: res.text };
  }

  /** Submits the page's `formIndex`-th form: its hidden fields plus `fields` (what the user types). */
  async submit(html: string, formIndex: number, fields: Record<string, string>) {
    const form = parseForms(html)[formIndex];
    if (!form) throw new Error(`no form ${formIndex} in page:\n${html}`);
    return this.navigate(form.action, { ...form.hidden, ...fields });
  }
}

/** A form POSTed to `url` (a token endpoint, say), like curl -d; a body that is not JSON comes back as `{ raw }`. */
export interface FormResponse {
  status: number;
  headers: Record<string, string | undefined>;
  body: Record<string, unknown>;
}

export async function postForm(url: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<FormResponse> {
  const res = await request(url).post('').type('form').set(headers).send(form);
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(res.text) as Record<string, unknown>;
  } catch {
    body = { raw: res.text };
  }
  return { status: res.status, headers: res.headers, body };
}
