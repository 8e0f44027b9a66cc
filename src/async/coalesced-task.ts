/**
 * Work that runs one call at a time, where asking again while it runs means "run once more when done":
 * any number of asks during a run make exactly one more run, which sees everything they were asked
 * for. It is how the event feed reads new events, the numbering numbers them and the webhook
 * dispatcher claims deliveries: each call takes all that is waiting, so more calls in parallel would
 * only contend.
 */
export class CoalescedTask {
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  /** `work` does one run; its failure goes to `failed` (the next ask runs it again). */
  constructor(
    private readonly work: () => Promise<void>,
    private readonly failed: (err: unknown) => void = () => {},
  ) {}

  /** Runs the work now, or once more after the run in flight. Nothing after `stop`. */
  ask(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.work()
      .catch(this.failed)
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.ask();
        }
      });
  }

  /** Resolves when no run is in flight (a run asked for meanwhile included). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Refuses further asks and resolves once the run in flight has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.idle();
  }
}
