import type { Worker } from 'node:worker_threads';
import type { FilePlan, FileRows } from './file-rows.ts';

/** What a worker is sent: the plan of a file's rows, and whether `romp ls` lists the file. */
export interface RowTask {
  plan: FilePlan;
  listed: boolean;
}

interface Task extends RowTask {
  resolve: (rows: FileRows) => void;
  reject: (error: Error) => void;
}

/**
 * Worker threads that parse transcripts into rows (`index-worker.ts`, `fileRows`) and read their listing and usage
 * (`parsedRows`), so the main thread spends its time in SQLite: one file per worker at a time, the others queued in
 * the order asked.
 */
export class RowPool {
  readonly #count: number;
  readonly #idle: Worker[] = [];
  readonly #all: Worker[] = [];
  readonly #queue: Task[] = [];
  readonly #running = new Map<Worker, Task>();

  /** @param count worker threads (started on first use) */
  constructor(count: number) {
    this.#count = Math.max(1, count);
  }

  /**
   * Parses one transcript in a worker, and reads its listing and usage.
   * @param plan as for `fileRows`
   * @param listed whether `romp ls` lists the file (its listing is read)
   * @returns its rows, with `stamped`
   */
  async rows(plan: FilePlan, listed: boolean): Promise<FileRows> {
    if (this.#all.length === 0) await this.#start();
    return new Promise((resolve, reject) => {
      this.#queue.push({ plan, listed, resolve, reject });
      this.#next();
    });
  }

  /** Stops the workers. */
  async close(): Promise<void> {
    await Promise.all(this.#all.map((w) => w.terminate()));
  }

  async #start(): Promise<void> {
    const { Worker } = await import('node:worker_threads');
    if (this.#all.length > 0) return;
    // from `dist/src/index-db/` or from the command line's bundle in `dist/src/cli/` (build/bundle-cli.ts)
    const script = new URL('../index-db/index-worker.js', import.meta.url);
    for (let i = 0; i < this.#count; i++) {
      const worker = new Worker(script);
      worker.on('message', (message: { rows?: FileRows; error?: string }) => {
        const task = this.#running.get(worker);
        this.#running.delete(worker);
        this.#idle.push(worker);
        if (message.rows !== undefined) task?.resolve(message.rows);
        else task?.reject(new Error(`${task.plan.path}: ${message.error ?? 'no rows'}`));
        this.#next();
      });
      // a worker that died takes the refresh with it: every task fails, none waits forever
      worker.on('error', (error) => {
        for (const task of [...this.#running.values(), ...this.#queue.splice(0)]) task.reject(error);
        this.#running.clear();
      });
      this.#all.push(worker);
      this.#idle.push(worker);
    }
  }

  #next(): void {
    while (this.#idle.length > 0 && this.#queue.length > 0) {
      const worker = this.#idle.pop() as Worker;
      const task = this.#queue.shift() as Task;
      this.#running.set(worker, task);
      worker.postMessage({ plan: task.plan, listed: task.listed } satisfies RowTask);
    }
  }
}
