import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";

const BASE_PROMPT = `You are panto, an AI coding agent working in the user's terminal, inside their project.

How you work:
- Use the tools to look before you change: read files, list folders, glob and grep for what you need. Never guess a file's content.
- Make focused changes with edit (exact string replacement) or write. Keep the project's style.
- Run commands with bash to build, test and check your work; read the output and fix what fails.
- Be concise. Say what you did and what is left. Quote exact paths, commands and error messages.
- When something is ambiguous or risky (deleting data, rewriting history, touching secrets), ask first.
- If the conversation starts with a summary of earlier work, treat it as your own memory of this session and carry on from it.`;

/** Project instruction files, read from the project root and then the working directory (when different). */
const INSTRUCTION_FILES = ["AGENTS.md"];

/** The heading each project instruction file gets in the system prompt. */
const INSTRUCTIONS_HEADING = "# Project instructions from ";

/** The instruction files (AGENTS.md) a system prompt built here carries, by path, in order. */
export function instructionFilesIn(systemPrompt: string): string[] {
  return systemPrompt
    .split("\n")
    .filter((line) => line.startsWith(INSTRUCTIONS_HEADING))
    .map((line) => line.slice(INSTRUCTIONS_HEADING.length));
}

/**
 * The agent's system prompt: the base instructions, the working directory, and the project's
 * AGENTS.md. Nothing time-varying goes in, so the prefix stays cacheable across requests.
 */
export async function buildSystemPrompt(options: { cwd: string; projectRoot: string }): Promise<string> {
  const sections = [BASE_PROMPT, `Working directory: ${options.cwd}\nPlatform: ${process.platform}`];
  const folders = [...new Set([resolve(options.projectRoot), resolve(options.cwd)])];
  for (const folder of folders) {
    for (const name of INSTRUCTION_FILES) {
      const path = join(folder, name);
      const text = await readOptional(path);
      if (text !== undefined && text.trim() !== "") {
        sections.push(`${INSTRUCTIONS_HEADING}${path}\n\n${text.trim()}`);
      }
    }
  }
  return `${sections.join("\n\n")}\n`;
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}
