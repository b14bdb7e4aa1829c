/** A job that a queue runs once. */
export interface Job {
  id: string;
  attempts: number;
  run(signal: AbortSignal): Promise<void>;
}

/** Options of a queue. */
export type QueueOptions = { concurrency: number; retries: number };

export class JobQueue {
  private pending: Job[] = [];
  private active = 0;

  constructor(private readonly options: QueueOptions) {}

  enqueue(job: Job): void {
    this.pending.push(job);
    this.drain();
  }

  get size(): number {
    return this.pending.length + this.active;
  }

  private drain(): void {
    while (this.active < this.options.concurrency && this.pending.length > 0) {
      const job = this.pending.shift()!;
      this.active++;
      void this.execute(job).finally(() => {
        this.active--;
        this.drain();
      });
    }
  }

  private async execute(job: Job): Promise<void> {
    const controller = new AbortController();
    job.attempts++;
    await job.run(controller.signal);
  }
}
