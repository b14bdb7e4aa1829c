import { Job, JobQueue, QueueOptions } from "./queue";

const defaults: QueueOptions = { concurrency: 2, retries: 3 };

/** Makes a job that waits ms milliseconds, or stops when aborted. */
export function sleepJob(id: string, ms: number): Job {
  return {
    id,
    attempts: 0,
    run(signal: AbortSignal): Promise<void> {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, ms);
        signal.addEventListener("abort", () => {
          clearTimeout(timer);
          reject(new Error(`job ${id} aborted`));
        });
      });
    },
  };
}

export function startWorkers(ids: string[], options = defaults): JobQueue {
  const queue = new JobQueue(options);
  for (const id of ids) {
    queue.enqueue(sleepJob(id, 10 * id.length));
  }
  console.log(`queued ${queue.size} jobs`);
  return queue;
}
