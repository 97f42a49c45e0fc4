import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/**
 * The npm client onetimesecret-api 1.1.3, run unchanged in its own Node process
 * (js-client-driver.mjs: its node-fetch 3 is an ES module that Jest's CommonJS loader cannot
 * load). It is pointed at Hush with its public `url` option (it builds `${url}/api/v1/<path>`).
 */
export interface JsClientError {
  name: string;
  message: string;
}

type Answer = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: JsClientError };

export class JsClient {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly pending = new Map<number, (answer: Answer) => void>();
  private next = 0;

  constructor(
    private readonly url: string,
    private readonly user: string,
    private readonly key: string,
  ) {
    const driver = fileURLToPath(new URL('./js-client-driver.mjs', import.meta.url));
    this.child = spawn(process.execPath, [driver], { stdio: ['pipe', 'pipe', 'pipe'] });
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      const answer = JSON.parse(line) as Answer;
      this.pending.get(answer.id)?.(answer);
      this.pending.delete(answer.id);
    });
  }

  /** Calls `method(...args)` on the client; resolves with its value, rejects with its error's class name and message. */
  call<T = Record<string, unknown>>(method: string, ...args: unknown[]): Promise<T> {
    return this.callAs<T>({ user: this.user, key: this.key }, method, ...args);
  }

  /** The same, on a client made with other credentials. */
  callAs<T = Record<string, unknown>>(credentials: { user: string; key: string }, method: string, ...args: unknown[]): Promise<T> {
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, (answer) => (answer.ok ? resolve(answer.value as T) : reject(Object.assign(new Error(answer.error.message), { name: answer.error.name }))));
      this.child.stdin.write(`${JSON.stringify({ id, url: this.url, ...credentials, method, args })}\n`);
    });
  }

  async close(): Promise<void> {
    this.child.stdin.end();
    if (this.child.exitCode === null) await once(this.child, 'exit');
  }
}
