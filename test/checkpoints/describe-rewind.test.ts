import { execSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  describeRewindDone,
  describeRewindPlan,
  describeRewindPoints,
  turnRanges,
} from "../../src/checkpoints/describe-rewind.js";
import { applyRewind, prepareRewind } from "../../src/checkpoints/index.js";
import { listRewindPoints } from "../../src/checkpoints/rewind-points.js";
import { recordedTurn, useCheckpointFixture } from "./checkpoint-fixture.js";

const fixture = useCheckpointFixture();

describe("rewind reports", () => {
  it("write turn ranges compactly", () => {
    expect(turnRanges([])).toBe("none");
    expect(turnRanges([3])).toBe("3");
    expect(turnRanges([2, 3, 4, 7, 9, 10])).toBe("2-4, 7, 9-10");
  });

  it("say what a dry run would do to each file and to the conversation, and then what was done", async () => {
    const value = fixture();
    await recordedTurn(value, "look around", "bash", { command: "ls" }, () => {});
    await recordedTurn(value, "break it\nwith detail", "bash", { command: "…" }, () => {
      execSync("rm run.sh && echo new > fresh.txt && echo changed > src/app.ts && echo x > debug.log", {
        cwd: value.project,
      });
    });
    await writeFile(join(value.project, "src/app.ts"), "mine\n");
    const options = {
      sessionPath: value.session.path,
      pantoHome: value.home,
      target: { turn: 2 },
      scope: "both" as const,
    };
    const plan = describeRewindPlan(await prepareRewind(options));
    expect(plan.split("\n")).toEqual([
      "Rewind to before turn 2 (dry run: nothing was changed):",
      "  conversation: turn 2 would leave the context",
      "  files:",
      "    remove     fresh.txt",
      "    recreate   run.sh",
      "    conflict   src/app.ts  it changed since panto last recorded it (by you or another program)",
      "    skipped    debug.log  ignored by the project's ignore rules, not checkpointed",
    ]);
    const report = await applyRewind(await prepareRewind(options), value.session, {
      pantoHome: value.home,
      force: false,
    });
    expect(describeRewindDone(report)).toContain("    removed    fresh.txt\n    recreated  run.sh\n");
    expect(describeRewindDone(report)).toContain("1 file changed since panto recorded them were left alone");

    const points = describeRewindPoints(await listRewindPoints(value.session.path)).split("\n");
    expect(points).toEqual([
      "  turn   prompt · files it changed",
      '     1   "look around"',
      '     2   "break it" (rewound)  · src/app.ts, fresh.txt, run.sh',
      "  ↶      rewind to before turn 2 (both)  (--undo takes it back)",
    ]);
  });
});
