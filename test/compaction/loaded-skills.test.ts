import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_CARRIED_SKILLS, skillsLoadedIn, withLoadedSkills } from "../../src/compaction/index.js";
import type { CompactionRecord, Message, Turn } from "../../src/core/index.js";
import { assistant, call, results, user } from "./builders.js";

function skillTurn(name: string, id: string, isError = false): Turn {
  const messages: Message[] = [
    user(`use ${name}`),
    assistant([call(id, "skill", { name })]),
    results({ id, name: "skill", text: "instructions", isError }),
  ];
  return { start: 0, end: messages.length, messages };
}

const record = { summary: "s", trigger: "manual" } as CompactionRecord;

describe("skills named in the compaction block", () => {
  it("are those the summarised turns loaded without an error, once each, first load first", () => {
    const turns = [
      skillTurn("deploy", "a"),
      skillTurn("lint", "b", true),
      skillTurn("review", "c"),
      skillTurn("deploy", "d"),
    ];
    expect(skillsLoadedIn(turns)).toEqual(["deploy", "review"]);
  });

  it("carry the skills the replaced compaction named, and are absent when there are none", () => {
    expect(withLoadedSkills(record, [skillTurn("review", "c")], ["deploy", "review"]).skills).toEqual([
      "deploy",
      "review",
    ]);
    expect(withLoadedSkills(record, [], ["deploy"]).skills).toEqual(["deploy"]);
    expect(withLoadedSkills(record, [], [])).toBe(record);
  });

  it("hold every name loaded or carried, without repeats, up to the cap (the newest kept)", () => {
    const name = fc.constantFrom(
      "a",
      "b",
      "c",
      "d",
      "e",
      "f",
      ...Array.from({ length: 40 }, (_, i) => `s${i}`),
    );
    fc.assert(
      fc.property(fc.array(name), fc.array(name), (earlier, loaded) => {
        const turns = loaded.map((skill, index) => skillTurn(skill, `id${index}`));
        const skills = withLoadedSkills(record, turns, earlier).skills ?? [];
        const all = new Set([...earlier, ...loaded]);
        expect(new Set(skills).size).toBe(skills.length);
        expect(skills.length).toBe(Math.min(all.size, MAX_CARRIED_SKILLS));
        for (const skill of skills) expect(all.has(skill)).toBe(true);
        if (all.size <= MAX_CARRIED_SKILLS) for (const skill of loaded) expect(skills).toContain(skill);
      }),
    );
  });
});
