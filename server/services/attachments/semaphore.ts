/**
 * At most `limit` tasks at a time; the others wait their turn in order. What keeps 20 uploads of
 * 12-megapixel photos from decoding at once (each holds about 36 MB of pixels while it is worked).
 */
export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  readonly limit: number;

  constructor(limit: number) {
    this.limit = Math.max(1, limit);
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active += 1;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next task, so `active` stays counted.
      if (next) next();
      else this.active -= 1;
    }
  }

  /** Tasks running and waiting (the benchmark and tests read it). */
  get load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }
}
