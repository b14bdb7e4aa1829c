// A typed event emitter with once-listeners, async waiting and disposal.

export type Listener<T> = (payload: T) => void;

export interface Disposable {
  dispose(): void;
}

type EventMap = Record<string, unknown>;

interface Registration<T> {
  listener: Listener<T>;
  once: boolean;
}

export class Emitter<Events extends EventMap> {
  private readonly listeners = new Map<keyof Events, Registration<any>[]>();
  private disposed = false;

  on<K extends keyof Events>(event: K, listener: Listener<Events[K]>): Disposable {
    return this.add(event, listener, false);
  }

  once<K extends keyof Events>(event: K, listener: Listener<Events[K]>): Disposable {
    return this.add(event, listener, true);
  }

  off<K extends keyof Events>(event: K, listener: Listener<Events[K]>): void {
    const regs = this.listeners.get(event);
    if (!regs) {
      return;
    }
    const index = regs.findIndex((r) => r.listener === listener);
    if (index >= 0) {
      regs.splice(index, 1);
    }
    if (regs.length === 0) {
      this.listeners.delete(event);
    }
  }

  emit<K extends keyof Events>(event: K, payload: Events[K]): number {
    if (this.disposed) {
      throw new Error(`emit(${String(event)}) after dispose`);
    }
    const regs = this.listeners.get(event);
    if (!regs || regs.length === 0) {
      return 0;
    }
    const snapshot = regs.slice();
    for (const reg of snapshot) {
      if (reg.once) {
        this.off(event, reg.listener);
      }
      try {
        reg.listener(payload);
      } catch (err) {
        console.error(`listener for ${String(event)} failed:`, err);
      }
    }
    return snapshot.length;
  }

  wait<K extends keyof Events>(event: K, timeoutMs?: number): Promise<Events[K]> {
    return new Promise((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const sub = this.once(event, (payload) => {
        if (timer !== undefined) {
          clearTimeout(timer);
        }
        resolve(payload);
      });
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => {
          sub.dispose();
          reject(new Error(`timed out after ${timeoutMs} ms waiting for ${String(event)}`));
        }, timeoutMs);
      }
    });
  }

  listenerCount<K extends keyof Events>(event: K): number {
    return this.listeners.get(event)?.length ?? 0;
  }

  dispose(): void {
    this.disposed = true;
    this.listeners.clear();
  }

  private add<K extends keyof Events>(event: K, listener: Listener<Events[K]>, once: boolean): Disposable {
    if (this.disposed) {
      throw new Error(`cannot subscribe to ${String(event)} after dispose`);
    }
    let regs = this.listeners.get(event);
    if (!regs) {
      regs = [];
      this.listeners.set(event, regs);
    }
    regs.push({ listener, once });
    return { dispose: () => this.off(event, listener) };
  }
}

interface DownloadEvents extends EventMap {
  progress: { received: number; total: number };
  done: { path: string };
  error: Error;
}

export async function download(url: string, emitter: Emitter<DownloadEvents>): Promise<string> {
  const response = await fetch(url);
  if (!response.ok || !response.body) {
    const err = new Error(`GET ${url}: ${response.status} ${response.statusText}`);
    emitter.emit("error", err);
    throw err;
  }
  const total = Number(response.headers.get("content-length") ?? 0);
  const reader = response.body.getReader();
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) {
      break;
    }
    received += value.length;
    emitter.emit("progress", { received, total });
  }
  const path = new URL(url).pathname.split("/").pop() ?? "download";
  emitter.emit("done", { path });
  return path;
}
