// A count of holders allowed at once, the rest waiting in turn: the delivery worker's attempts of
// the whole process, the fixtures loads that each hold a PostgreSQL connection.

/** At most `size` holders at once; take() resolves, in the order asked, to the release of the slot taken. */
export class Slots {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(size: number) {
    this.free = size;
  }

  async take(): Promise<() => void> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    };
  }
}
