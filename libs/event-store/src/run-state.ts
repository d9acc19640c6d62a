/**
 * Whether a component that follows the log runs. start() runs its start-up once, and leaves it stopped again when
 * the start-up fails; stop() marks it stopped and answers whether it was running (there is something to stop).
 */
export class RunState {
  private on = false;

  get running(): boolean {
    return this.on;
  }

  async start(startUp: () => Promise<void>): Promise<void> {
    if (this.on) return;
    this.on = true;
    try {
      await startUp();
    } catch (error) {
      this.on = false;
      throw error;
    }
  }

  stop(): boolean {
    if (!this.on) return false;
    this.on = false;
    return true;
  }
}
