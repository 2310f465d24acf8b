// Keeps the requests of one key (a session) in the order they arrived through an async set-up
// phase. A session/prompt awaits a few things (the session's owner check, the prompt module, the
// runtime) before it joins the session's turn queue; those awaits can finish out of order (file
// checks in the thread pool, module loading), so without this a prompt sent second could be
// queued first, and a /queue sent after two prompts could find neither.
export class ArrivalOrder {
  private readonly tails = new Map<string, Promise<void>>();

  /**
   * Runs `work` once every earlier request of `key` said it is in place (called `placed`, or
   * finished). `work` calls `placed()` as soon as its request holds its position.
   */
  async inOrder<T>(key: string, work: (placed: () => void) => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let placed!: () => void;
    const mine = new Promise<void>((resolve) => (placed = resolve));
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    await previous;
    try {
      return await work(placed);
    } finally {
      placed();
    }
  }
}
