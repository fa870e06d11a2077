import type { CheckpointStore } from "./checkpoint-store.js";
import { runGit } from "./git-process.js";
import { writeLooseBlob } from "./loose-object.js";

function projectRun(store: CheckpointStore, args: string[], input: string) {
  return runGit({
    args,
    cwd: store.workspace.root,
    env: { GIT_DIR: store.workspace.projectGitDir as string },
    input,
  });
}

/** The ids among `oids` that the project's own repository holds as blobs (read only). */
export async function projectHolds(store: CheckpointStore, oids: readonly string[]): Promise<Set<string>> {
  const held = new Set<string>();
  if (store.workspace.projectGitDir === undefined || oids.length === 0) return held;
  const { stdout } = await projectRun(
    store,
    ["cat-file", "--batch-check=%(objectname) %(objecttype)"],
    `${oids.join("\n")}\n`,
  );
  for (const line of stdout.toString("utf8").split("\n")) {
    const [oid, type] = line.split(" ");
    if (oid !== undefined && type === "blob") held.add(oid);
  }
  return held;
}

/**
 * Copies blobs from the project's repository into the store (read there, written here), so a
 * checkpoint never depends on objects the project may later prune. Returns the ids copied; an id
 * the project does not hold is left out.
 */
export async function copyFromProject(store: CheckpointStore, oids: readonly string[]): Promise<Set<string>> {
  const copied = new Set<string>();
  if (store.workspace.projectGitDir === undefined || oids.length === 0) return copied;
  const { stdout } = await projectRun(store, ["cat-file", "--batch"], `${oids.join("\n")}\n`);
  let offset = 0;
  while (offset < stdout.length) {
    const newline = stdout.indexOf(0x0a, offset);
    if (newline === -1) break;
    const [oid, type, size] = stdout.toString("utf8", offset, newline).split(" ");
    offset = newline + 1;
    if (type === "missing" || size === undefined) continue;
    const content = stdout.subarray(offset, offset + Number(size));
    offset += Number(size) + 1;
    if (type === "blob" && oid !== undefined && (await writeLooseBlob(store.objectsDir, content)) === oid)
      copied.add(oid);
  }
  return copied;
}
