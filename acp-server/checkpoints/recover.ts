// Finishing a restore that was interrupted (kill -9, power loss): the journal names every op,
// and each op is idempotent and checks the disk first, so running them again completes the
// restore. Completing (rather than rolling back to the backup) was chosen because the user
// approved that change, the journal and the target are durable, and replaying is the same
// code path as the restore itself; a file that holds neither its before nor its target
// content was changed by someone since and is left alone and named. The backup commit stays
// under its ref, so the restore can still be undone.
import { applyOps, gitBlobReader, removeRestoreLeftovers } from "./apply-ops";
import { ownerAlive, readJournal, removeJournal } from "./restore-journal";
import { readNestedRepos, type ShadowRepo } from "./shadow-repo";
import type { RecoveryReport } from "./types";

/** undefined: nothing to recover (or the restore is still running in another live process). */
export async function recoverRestore(repo: ShadowRepo): Promise<RecoveryReport | undefined> {
  const journal = readJournal(repo.dir);
  if (!journal || ownerAlive(journal)) return undefined;
  removeRestoreLeftovers(journal.ops, repo.workspace);
  const outcome = await applyOps(journal.ops, { readBlobs: gitBlobReader(repo.git), realRoot: repo.workspace, nestedRepos: readNestedRepos(repo.dir) });
  removeJournal(repo.dir);
  return { completed: true, journalId: journal.id, applied: outcome.applied.length, leftAlone: outcome.leftAlone, failed: outcome.failed };
}
