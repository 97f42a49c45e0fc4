import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { DomainError } from '../http/errors.js';

/**
 * bcrypt (bcryptjs) in worker threads, for every service that hashes passwords or passphrases.
 * Rules:
 * - bcrypt runs for ~250 ms at cost 12: never on the event loop, which would stall every other
 *   request; `size` workers run jobs, spawned as jobs need them and ended after `idleMs` without
 *   work (each is an isolate of its own, 10-40 MB resident once it has hashed under load);
 * - the workers run at the lowest CPU priority (nice 19, where the system has it), so a flood of
 *   hashing takes only the CPU that requests, the database and Redis leave idle;
 * - at most `queue` jobs wait for a worker; one more is refused at once with
 *   BcryptPoolBusyError (503, Retry-After: the estimated time to drain what is waiting) instead
 *   of waiting without bound, so a flood of sign-ins answers quickly and holds no memory;
 * - a caller that must do other work before the hash, and must not do it when the hash would be
 *   refused (spend a passphrase attempt, say), takes a place first (`reserve`), and gives it back
 *   when it is done or gone, withdrawing its job if that still waits;
 * - a closed pool's idle workers are kept a while for the next pool of the same process, which takes
 *   them instead of starting its own (a worker costs ~70 ms of CPU to start): a service has one
 *   pool, but a process that builds one app after another (the test suite's workers) would
 *   otherwise start new workers for each.
 *
 * The worker is given as source text (CommonJS, requiring bcryptjs by absolute path) so the same
 * code runs from dist and from the TypeScript sources under Jest, where no compiled file exists.
 */
export interface BcryptPoolOptions {
  /** Worker threads. */
  size: number;
  /** Jobs that may wait for a worker; beyond them a job is refused. */
  queue: number;
  /** A worker without work for this long (ms) is ended; 0 keeps workers for good. */
  idleMs?: number;
}

/** Every worker busy and the queue full: the caller may retry after `retryAfter` seconds. */
export class BcryptPoolBusyError extends DomainError {
  constructor(readonly retryAfter: number) {
    super(503, 'temporarily_unavailable', `The service is busy; retry in ${retryAfter} seconds`, { 'Retry-After': String(retryAfter) });
  }
}

/** A place in the pool for one job, taken by `reserve`: use it once, then release it. */
export interface BcryptPlace {
  hash(input: string, saltOrCost: string | number): Promise<string>;
  compare(input: string, hash: string): Promise<boolean>;
  /**
   * Gives the place back if it was not used, and withdraws its job if that is still waiting (it
   * fails with BcryptPoolBusyError): a caller that left (a closed connection) leaves no work
   * behind. A running job runs to its end. A job through a place given back is admitted as a new one.
   */
  release(): void;
}

/** Heap limits of a bcrypt worker (MB); bcryptjs keeps a few kB per hash. */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 };

// The lowest CPU priority, for this thread alone (on Linux the nice value is per thread): where
// the machine is busy, the event loop, PostgreSQL and Redis run first and bcrypt gets what is left.
// compareSync answers false for anything that is not a bcrypt hash (a disabled password, say).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
try { require('node:os').setPriority(19); } catch {}
const bcrypt = require(workerData.bcryptPath);
parentPort.on('message', ({ id, input, salt, hash }) => {
  try {
    const result = hash === undefined ? bcrypt.hashSync(input, salt) : bcrypt.compareSync(input, hash);
    parentPort.postMessage({ id, result });
  } catch (err) {
    parentPort.postMessage({ id, error: String(err && err.message || err) });
  }
});
`;

type Work = { input: string; salt: string | number } | { input: string; hash: string };

interface Job {
  id: number;
  work: Work;
  resolve(result: string | boolean): void;
  reject(err: Error): void;
}

/** Idle workers of closed pools, at most SPARES_MAX, each ended after SPARE_MS unless a pool takes it. */
const spares = new Map<Worker, NodeJS.Timeout>();
const SPARES_MAX = 4;
const SPARE_MS = 30_000;

/** Keeps `worker`, idle and no longer any pool's, for the next pool to take; ends it if there are enough. */
function park(worker: Worker): Promise<unknown> {
  worker.removeAllListeners('message');
  worker.removeAllListeners('error');
  if (spares.size >= SPARES_MAX) return worker.terminate();
  const end = () => {
    spares.delete(worker);
    void worker.terminate();
  };
  worker.on('error', end);
  const timer = setTimeout(end, SPARE_MS);
  timer.unref();
  spares.set(worker, timer);
  return Promise.resolve();
}

/** A spare worker, taken out of the spares; none if there is none. */
function takeSpare(): Worker | undefined {
  const [entry] = spares;
  if (entry === undefined) return undefined;
  const [worker, timer] = entry;
  clearTimeout(timer);
  spares.delete(worker);
  worker.removeAllListeners('error');
  return worker;
}

/** The first estimate of a job's time (ms), until one has run: bcrypt at cost 12 on a common core. */
const FIRST_ESTIMATE_MS = 250;

export class BcryptPool {
  readonly size: number;
  private readonly maxQueue: number;
  private readonly idleMs: number;
  private readonly bcryptPath = createRequire(import.meta.url).resolve('bcryptjs');
  private readonly idle: Worker[] = [];
  /** An idle worker's timer: it is ended after `idleMs` without work. */
  private readonly idleSince = new Map<Worker, NodeJS.Timeout>();
  private readonly busy = new Map<Worker, { job: Job; started: number }>();
  private readonly queue: Job[] = [];
  /** Places reserved and not yet used or released. */
  private reserved = 0;
  private nextId = 1;
  private closed = false;
  private spawned = 0;
  /** A moving average of a job's time in a worker (ms), for Retry-After. */
  private jobMs = FIRST_ESTIMATE_MS;

  constructor(options: BcryptPoolOptions) {
    this.size = Math.max(1, options.size);
    this.maxQueue = Math.max(0, options.queue);
    this.idleMs = options.idleMs ?? 30_000;
  }

  /** Workers running now (busy or idle). */
  get workers(): number {
    return this.spawned;
  }

  /** Takes a place for one job now; throws BcryptPoolBusyError when every worker is busy and the queue is full. */
  reserve(): BcryptPlace {
    this.admit();
    this.reserved++;
    let held = true;
    /** The jobs run through this place, for `release` to withdraw those still waiting. */
    const jobs: Job[] = [];
    // A place serves one job; another through it (or one after `release`) is admitted as any new job.
    const use = async <T extends string | boolean>(work: Work): Promise<T> => {
      if (held) {
        held = false;
        this.reserved--;
      } else {
        this.admit();
      }
      return (await this.enqueue(work, (job) => jobs.push(job))) as T;
    };
    return {
      hash: (input, saltOrCost) => use<string>({ input, salt: saltOrCost }),
      compare: (input, hash) => use<boolean>({ input, hash }),
      release: () => {
        if (held) {
          held = false;
          this.reserved--;
        }
        for (const job of jobs.splice(0)) this.withdraw(job);
      },
    };
  }

  /** bcrypt(input) with a new salt of the given cost, or with the salt and cost of an existing hash. */
  async hash(input: string, saltOrCost: string | number): Promise<string> {
    return this.reserve().hash(input, saltOrCost);
  }

  /** Whether `input` matches the bcrypt hash `hash` (false when `hash` is no bcrypt hash). */
  async compare(input: string, hash: string): Promise<boolean> {
    return this.reserve().compare(input, hash);
  }

  /** Refuses new work, lets queued and running jobs finish (at most `drainMs`), then hands the idle workers on (`park`) and stops the rest. */
  async close(drainMs = 10_000): Promise<void> {
    this.closed = true;
    const deadline = Date.now() + drainMs;
    while ((this.queue.length > 0 || this.busy.size > 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    for (const job of this.queue.splice(0)) job.reject(new Error('bcrypt pool is closed'));
    for (const timer of this.idleSince.values()) clearTimeout(timer);
    this.idleSince.clear();
    await Promise.all([...this.idle.splice(0).map(park), ...[...this.busy.keys()].map((w) => w.terminate())]);
  }

  /** Throws unless there is room for one more job: a worker, or a place in the queue. */
  private admit(): void {
    if (this.closed) throw new Error('bcrypt pool is closed');
    const taken = this.busy.size + this.queue.length + this.reserved;
    if (taken >= this.size + this.maxQueue) throw new BcryptPoolBusyError(this.drainSeconds());
  }

  /** Seconds until what is running and waiting now has run (at least 1). */
  private drainSeconds(): number {
    const jobs = this.busy.size + this.queue.length + this.reserved;
    return Math.max(1, Math.ceil((Math.ceil(jobs / this.size) * this.jobMs) / 1000));
  }

  private enqueue(work: Work, queued: (job: Job) => void): Promise<string | boolean> {
    if (this.closed) return Promise.reject(new Error('bcrypt pool is closed'));
    return new Promise((resolve, reject) => {
      const job = { id: this.nextId++, work, resolve, reject };
      this.queue.push(job);
      queued(job);
      this.dispatch();
    });
  }

  /** Takes `job` out of the queue if it is still waiting (its caller left): it fails as refused, and frees its place. */
  private withdraw(job: Job): void {
    const at = this.queue.indexOf(job);
    if (at < 0) return;
    this.queue.splice(at, 1);
    job.reject(new BcryptPoolBusyError(this.drainSeconds()));
  }

  private spawn(): Worker {
    // A hash needs a few kB: without limits each worker's heap grows to V8's defaults under load (a
    // 32 MB young generation), tens of MB of the service's resident memory for nothing.
    const worker = takeSpare() ?? new Worker(WORKER_SOURCE, { eval: true, workerData: { bcryptPath: this.bcryptPath }, resourceLimits: WORKER_LIMITS });
    worker.unref();
    worker.on('message', (msg: { id: number; result?: string | boolean; error?: string }) => {
      const running = this.busy.get(worker);
      this.busy.delete(worker);
      this.release(worker);
      if (running && running.job.id === msg.id) {
        this.jobMs = 0.8 * this.jobMs + 0.2 * (performance.now() - running.started);
        if (msg.error !== undefined || msg.result === undefined) running.job.reject(new Error(`bcrypt failed: ${msg.error}`));
        else running.job.resolve(msg.result);
      }
      this.dispatch();
    });
    worker.on('error', (err) => {
      // A crashed worker fails its job and is replaced, so the pool keeps its size.
      const running = this.busy.get(worker);
      this.busy.delete(worker);
      this.forget(worker);
      running?.job.reject(err);
      if (!this.closed) {
        this.release(this.spawn());
        this.dispatch();
      }
    });
    return worker;
  }

  private dispatch(): void {
    while (this.queue.length > this.idle.length && this.spawned < this.size) {
      this.spawned++;
      this.release(this.spawn());
    }
    while (this.idle.length > 0 && this.queue.length > 0) {
      const worker = this.idle.pop() as Worker;
      clearTimeout(this.idleSince.get(worker));
      this.idleSince.delete(worker);
      const job = this.queue.shift() as Job;
      this.busy.set(worker, { job, started: performance.now() });
      worker.postMessage({ id: job.id, ...job.work });
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
