import { chmod, mkdir, rename, rm, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { openCheckpointStore, sessionIndexPath } from "../../src/checkpoints/checkpoint-store.js";
import { locateWorkspace } from "../../src/checkpoints/locate-workspace.js";
import { DEFAULT_SNAPSHOT_LIMITS } from "../../src/checkpoints/session-checkpoints.js";
import { WorkspaceIndex } from "../../src/checkpoints/workspace-index.js";
import type { FileChange } from "../../src/session/index.js";
import { useTempDir } from "../support/use-temp-dir.js";
import { makeGitProject } from "./checkpoint-fixture.js";

/**
 * The watcher only narrows what git is asked about; it must never change the answer. Random file
 * operations (new folders, renames, deletions of whole folders, mode changes, links, ignored files,
 * a changed .gitignore) are applied to a workspace, and after each one an index refreshed through
 * the watcher must report exactly the changes one refreshed by comparing every file reports.
 */
const NAMES = ["a", "b", "c"];
const pathArbitrary = fc
  .array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 3 })
  .map((parts) => parts.join("/"));

type Op =
  | { kind: "write"; path: string; text: string }
  | { kind: "log"; path: string }
  | { kind: "remove"; path: string }
  | { kind: "rename"; from: string; to: string }
  | { kind: "chmod"; path: string }
  | { kind: "link"; path: string; target: string }
  | { kind: "ignore"; pattern: string };

const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant("write" as const),
      path: pathArbitrary,
      text: fc.string({ maxLength: 8 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("log" as const), path: pathArbitrary }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("remove" as const), path: pathArbitrary }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("rename" as const), from: pathArbitrary, to: pathArbitrary }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("chmod" as const), path: pathArbitrary }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("link" as const), path: pathArbitrary, target: pathArbitrary }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("ignore" as const),
      pattern: fc.constantFrom("b/", "*.txt", "c"),
    }),
  },
);

async function apply(root: string, op: Op): Promise<void> {
  const at = (path: string) => join(root, "w", path);
  // Any operation may meet a file where a folder is wanted or the reverse: then it does nothing.
  await (async () => {
    switch (op.kind) {
      case "write":
        await mkdir(dirname(at(op.path)), { recursive: true });
        await writeFile(at(op.path), op.text);
        return;
      case "log":
        await mkdir(dirname(at(op.path)), { recursive: true });
        await writeFile(`${at(op.path)}.log`, "log");
        return;
      case "remove":
        await rm(at(op.path), { recursive: true, force: true });
        return;
      case "rename":
        await mkdir(dirname(at(op.to)), { recursive: true });
        await rename(at(op.from), at(op.to));
        return;
      case "chmod":
        await chmod(at(op.path), 0o755);
        return;
      case "link":
        await mkdir(dirname(at(op.path)), { recursive: true });
        await symlink(op.target, at(op.path));
        return;
      case "ignore":
        await writeFile(join(root, ".gitignore"), `*.log\n${op.pattern}\n`);
        return;
    }
  })().catch(() => undefined);
}

function summary(changes: readonly FileChange[]): string[] {
  return changes
    .map(
      (change) =>
        `${change.path} ${change.before?.oid ?? "-"}:${change.before?.mode ?? ""} ${change.after?.oid ?? "-"}:${change.after?.mode ?? ""}`,
    )
    .sort();
}

const temp = useTempDir("panto-watch-", { resolveLinks: true });

describe("refreshing through the watcher", () => {
  it("reports exactly what comparing every file reports, whatever the operations", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(opArbitrary, { minLength: 1, maxLength: 14 }), async (ops) => {
        const root = join(temp(), `p${run++}`);
        await makeGitProject(root);
        await mkdir(join(root, "w"));
        const workspace = await locateWorkspace(root);
        const store = await openCheckpointStore(join(temp(), `home${run}`), workspace);
        const watched = new WorkspaceIndex(
          store,
          sessionIndexPath(store, "watched"),
          DEFAULT_SNAPSHOT_LIMITS,
        );
        const scanned = new WorkspaceIndex(store, sessionIndexPath(store, "scanned"), {
          ...DEFAULT_SNAPSHOT_LIMITS,
          watch: false,
        });
        try {
          await watched.refresh();
          await scanned.refresh();
          for (const op of ops) {
            await apply(root, op);
            const [viaWatch, viaScan] = [await watched.refresh(), await scanned.refresh()];
            expect(summary(viaWatch.changes), JSON.stringify(op)).toEqual(summary(viaScan.changes));
          }
        } finally {
          watched.close();
        }
      }),
      { numRuns: 25 },
    );
  }, 240_000);
});
