import { expandCommandBody, isCommandProblem, parseCommandFile } from "../../src/custom-commands/index.js";
import { parseSkillFile } from "../../src/skills/index.js";
import { type FuzzTarget, invariant } from "../engine/fuzz-target.js";
import { CONTROL_CHARACTER } from "../support/terminal-safety.js";

const COMMAND = "/home/dev/project/.panto/commands/review.md";
const SKILL = "/home/dev/project/.panto/skills/deploy/SKILL.md";

/**
 * Custom command files and SKILL.md files (front matter, then a body). Invariants: reading never
 * throws; a problem's message starts with the file's path (and a line inside the file when it
 * names one) and holds no control character (it is printed as a warning); a command's body fills
 * in without throwing and keeps arguments it has no placeholder for; a skill has a description.
 */
export const target: FuzzTarget = {
  description:
    "command and SKILL.md text -> parseCommandFile, expandCommandBody, parseSkillFile (messages, lines)",
  dictionary: [
    "---\n",
    "description: ",
    "argument-hint: ",
    "model: ",
    "allowed-tools: ",
    "name: ",
    "$ARGUMENTS",
    "$1",
    "@",
    "[",
    "]",
    "{",
    "}",
    "'",
    '"',
    "*a",
    "&a ",
    "!tag ",
    "|\n",
    "  - ",
    "#",
    "\r\n",
    "\ufeff",
  ],
  maxLength: 4096,
  async run(input) {
    const text = input.toString("utf8");
    const lines = text.split(/\r?\n/).length;
    const command = await parseCommandFile(text, { path: COMMAND, source: "project" });
    if (isCommandProblem(command)) checkMessage(command.message, COMMAND, lines);
    else {
      const filled = expandCommandBody(command.body, "x y");
      invariant(/\$(ARGUMENTS|[1-9])/.test(command.body) || filled.endsWith("x y"), "arguments lost");
    }
    const skill = await parseSkillFile(text, {
      path: SKILL,
      folder: "/d",
      folderName: "deploy",
      source: "project",
    });
    if (!skill.ok) checkMessage(skill.problem.message, SKILL, lines);
    else invariant(skill.skill.description !== "", "a skill without a description");
  },
};

function checkMessage(message: string, path: string, lines: number): void {
  invariant(message.startsWith(`${path}:`), `a problem not naming the file first: ${message.slice(0, 120)}`);
  invariant(
    !CONTROL_CHARACTER.test(message),
    `a control character in ${JSON.stringify(message.slice(0, 200))}`,
  );
  const line = /^[^:]+:(\d+):/.exec(message)?.[1];
  if (line !== undefined)
    invariant(Number(line) >= 1 && Number(line) <= lines, `line ${line} outside a ${lines}-line file`);
}
