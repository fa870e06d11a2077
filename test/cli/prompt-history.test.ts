import { describe, expect, it } from "vitest";
import { HISTORY_SIZE } from "../../src/frontends/terminal/toolkit/history.js";
import { fromHistoryLine, PromptHistory } from "../../src/frontends/terminal/toolkit/prompt-history.js";

/** What node:readline does to its history array when a line is typed (duplicate removal off). */
function readlineAdds(entries: string[], line: string): void {
  if (entries[0] !== line) entries.unshift(line);
}

describe("PromptHistory", () => {
  it("undoes readline's own entries and records whole prompts, a multi-line one as one entry", () => {
    const saved: string[][] = [];
    const history = new PromptHistory(["older"], (entries) => saved.push([...entries]));
    for (const line of ["first line \\", "second line"]) {
      readlineAdds(history.entries, line);
      history.undoReadlineEntry(history.entries);
    }
    expect(history.entries).toEqual(["older"]);
    history.add("first line \nsecond line");
    expect(history.entries).toEqual(["first line ↵second line", "older"]);
    expect(fromHistoryLine(history.entries[0] ?? "")).toBe("first line \nsecond line");
    expect(saved).toHaveLength(1);
  });

  it("leaves the newest entry alone when readline did not add the typed line (it equalled that entry)", () => {
    const history = new PromptHistory(["same", "older"], () => {});
    readlineAdds(history.entries, "same");
    history.undoReadlineEntry(history.entries);
    expect(history.entries).toEqual(["same", "older"]);
  });

  it("trims prompts, moves a repeated prompt to the front, skips empty ones and keeps at most HISTORY_SIZE", () => {
    const history = new PromptHistory(["b", "a"], () => {});
    history.add("  a  ");
    history.add("   ");
    expect(history.entries).toEqual(["a", "b"]);
    for (let index = 0; index < HISTORY_SIZE + 5; index += 1) history.add(`p${index}`);
    expect(history.entries).toHaveLength(HISTORY_SIZE);
    expect(history.entries[0]).toBe(`p${HISTORY_SIZE + 4}`);
  });
});
