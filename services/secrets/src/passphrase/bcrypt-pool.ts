import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * bcrypt runs for ~250 ms at cost 12; on the event loop that would stall every other request.
 * This pool runs bcryptjs in worker threads (one per core by default) and queues the rest.
 *
 * The worker is given as source text (CommonJS, requiring bcryptjs by absolute path) so the same
 * code runs from dist and from the TypeScript sources under Jest, where no compiled file exists.
 */
/** Heap limits of a bcrypt worker (MB); bcryptjs keeps a few kB per hash. */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 };

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const bcrypt = require(workerData.bcryptPath);
parentPort.on('message', ({ id, input, salt }) => {
  try {
    parentPort.postMessage({ id, result: bcrypt.hashSync(input, salt) });
  } catch (err) {
    parentPort.postMessage({ id, error: String(err && err.message || err) });
  }
});
`;

interface Job {
  id: number;
  input: string;
  salt: string | number;
  resolve(hash: string): void;
  reject(err: Error): void;
}

export class BcryptPool {
  private readonly bcryptPath = createRequire(import.meta.url).resolve('bcryptjs');
  private readonly idle: Worker[] = [];
  /** An idle worker's timer: it is ended after `idleMs` without work. */
  private readonly idleSince = new Map<Worker, NodeJS.Timeout>();
  private readonly busy = new Map<Worker, Job>();
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  private started = false;
  private spawned = 0;

  /**
   * `idleMs`: a worker without work for this long is ended, and spawned again when jobs need it
   * (0 keeps workers for good).
   */
  constructor(
    readonly size: number = availableParallelism(),
    readonly idleMs = 30_000,
  ) {}

  /** Workers running now (busy or idle). */
  get workers(): number {
    return this.spawned;
  }

  /**
   * Lets the pool run jobs; jobs handed in before wait. Workers are spawned as jobs need them, up
   * to `size`, and ended after `idleMs` without work: a service that sees no passphrase holds no
   * worker (each is an isolate of its own, 10-40 MB resident once it has hashed under load), and
   * the first passphrases after a quiet spell wait ~20 ms for a worker.
   */
  start(): void {
    if (this.closed) return;
    this.started = true;
    this.dispatch();
  }

  /** bcrypt(input) with a new salt of the given cost, or with the salt and cost of an existing hash. */
  hash(input: string, saltOrCost: string | number): Promise<string> {
    if (this.closed) return Promise.reject(new Error('bcrypt pool is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, input, salt: saltOrCost, resolve, reject });
      this.dispatch();
    });
  }

  /** Refuses new work, lets queued and running jobs finish (at most `drainMs`), then stops the workers. */
  async close(drainMs = 10_000): Promise<void> {
    this.closed = true;
    const deadline = Date.now() + drainMs;
    while ((this.queue.length > 0 || this.busy.size > 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    for (const job of this.queue.splice(0)) job.reject(new Error('bcrypt pool is closed'));
    for (const timer of this.idleSince.values()) clearTimeout(timer);
    this.idleSince.clear();
    await Promise.all([...this.idle, ...this.busy.keys()].map((w) => w.terminate()));
  }

  private spawn(): Worker {
    // A hash needs a few kB: without limits each worker's heap grows to V8's defaults under load (a
    // 32 MB young generation), tens of MB of the service's resident memory for nothing.
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { bcryptPath: this.bcryptPath }, resourceLimits: WORKER_LIMITS });
    worker.unref();
    worker.on('message', (msg: { id: number; result?: string; error?: string }) => {
      const job = this.busy.get(worker);
      this.busy.delete(worker);
      this.release(worker);
      if (job && job.id === msg.id) {
        if (msg.error !== undefined || msg.result === undefined) job.reject(new Error(`bcrypt failed: ${msg.error}`));
        else job.resolve(msg.result);
      }
      this.dispatch();
    });
    worker.on('error', (err) => {
      // A crashed worker fails its job and is replaced, so the pool keeps its size.
      const job = this.busy.get(worker);
      this.busy.delete(worker);
      this.forget(worker);
      job?.reject(err);
      if (!this.closed) {
        this.release(this.spawn());
        this.dispatch();
      }
    });
    return worker;
  }

  private dispatch(): void {
    if (!this.started) return;
    while (this.queue.length > this.idle.length && this.spawned < this.size) {
      this.spawned++;
      this.release(this.spawn());
    }
    while (this.idle.length > 0 && this.queue.length > 0) {
      const worker = this.idle.pop() as Worker;
      clearTimeout(this.idleSince.get(worker));
      this.idleSince.delete(worker);
      const job = this.queue.shift() as Job;
      this.busy.set(worker, job);
      worker.postMessage({ id: job.id, input: job.input, salt: job.salt });
    }
  }

  /** Puts `worker` back among the idle ones; it is ended if no job takes it within `idleMs`. */
  private release(worker: Worker): void {
    this.idle.push(worker);
    if (this.idleMs <= 0 || this.closed) return;
    const timer = setTimeout(() => {
      if (!this.idleSince.has(worker)) return;
      this.forget(worker);
      this.spawned--;
      void worker.terminate();
    }, this.idleMs);
    timer.unref();
    this.idleSince.set(worker, timer);
  }

  /** Takes `worker` off the idle list and its timer off the clock (it crashed or is being ended). */
  private forget(worker: Worker): void {
    const at = this.idle.indexOf(worker);
    if (at >= 0) this.idle.splice(at, 1);
    clearTimeout(this.idleSince.get(worker));
    this.idleSince.delete(worker);
  }
}
