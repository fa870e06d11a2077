import { realpath } from "node:fs/promises";
import { findProjectRoot } from "../config/index.js";
import { CheckpointError } from "./checkpoint-error.js";
import { type CheckpointStore, openCheckpointStore } from "./checkpoint-store.js";
import { locateWorkspace, type Workspace } from "./locate-workspace.js";

/**
 * The checkpoint store of the workspace `cwd` is in. Without git, the project folder is the
 * workspace: file checkpoints (write, edit) still work, and workspace snapshots fail saying why.
 */
export async function openWorkspaceStore(pantoHome: string, cwd: string): Promise<CheckpointStore> {
  let workspace: Workspace;
  try {
    workspace = await locateWorkspace(cwd, pantoHome);
  } catch (error) {
    if (!(error instanceof CheckpointError && error.gitMissing)) throw error;
    workspace = { root: await realpath(findProjectRoot(cwd, { pantoHome })) };
  }
  try {
    return await openCheckpointStore(pantoHome, workspace);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new CheckpointError(`the checkpoint store could not be opened: ${detail}`, { cause: error });
  }
}
