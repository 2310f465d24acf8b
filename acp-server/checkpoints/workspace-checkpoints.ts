// The process's checkpoint stores, one per workspace, opened on first use: the engine (and
// git) load only when a session starts or a turn first changes something, never on the
// initialize path. Opening a store finishes a restore a crash interrupted; session start
// also prunes old checkpoints, in the background.
import type { CheckpointsConfig } from "../config/schema";
import type { Logger } from "../util/log";
import type { OpenResult } from "./store";

export class WorkspaceCheckpoints {
  private readonly opened = new Map<string, Promise<OpenResult>>();
  private readonly pruned = new Set<string>();
  /** Sessions already told that their workspace is not checkpointed (the note is said once). */
  private readonly noted = new Set<string>();

  constructor(
    private readonly config: CheckpointsConfig,
    private readonly hermesHome: string,
    private readonly log: Logger,
  ) {}

  get enabled(): boolean {
    return this.config.enabled;
  }

  /** The workspace's store, or why checkpoints are off there (never rejects). */
  open(workspace: string): Promise<OpenResult> {
    let result = this.opened.get(workspace);
    if (!result) {
      result = this.load(workspace);
      this.opened.set(workspace, result);
    }
    return result;
  }

  /**
   * A session started in `workspace`: open its store now (which completes an interrupted
   * restore) and drop checkpoints older than keep_days, without making anyone wait.
   */
  startSession(workspace: string): void {
    if (!this.config.enabled) return;
    void this.open(workspace)
      .then(async (opened) => {
        if (!opened.ok || this.pruned.has(opened.store.workspace)) return;
        this.pruned.add(opened.store.workspace);
        const result = await opened.store.prune();
        if (result.removed > 0) this.log.info("old checkpoints pruned", { workspace, ...result });
      })
      .catch((error: unknown) => this.log.warn("checkpoint pruning failed", { workspace, error }));
  }

  /** True the first time for a session: say the note, then never again. */
  noteOnce(sessionId: string): boolean {
    if (this.noted.has(sessionId)) return false;
    this.noted.add(sessionId);
    return true;
  }

  private async load(workspace: string): Promise<OpenResult> {
    try {
      const [{ openCheckpointStore }, { checkpointOptions }] = await Promise.all([import("./store"), import("./options")]);
      const result = await openCheckpointStore(workspace, checkpointOptions(this.config, this.hermesHome));
      if (!result.ok) this.log.info("checkpoints are off", { workspace, reason: result.reason });
      else if (result.recovery) this.log.warn("an interrupted restore was completed", { workspace, ...result.recovery });
      return result;
    } catch (error) {
      this.log.warn("checkpoint store could not be opened", { workspace, error });
      this.opened.delete(workspace); // a later call may succeed (a transient failure)
      return { ok: false, reason: `the checkpoint store could not be opened: ${(error as Error)?.message ?? String(error)}` };
    }
  }
}
