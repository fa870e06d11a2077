import { createHash } from "node:crypto";
import { mkdir, readdir, stat, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** Given by scripts/bundle-cli.mjs to the bundle it builds: a hash of the sources it was built from. */
declare const __PANTO_BUILD_ID__: string | undefined;

/** The bundle's build id; undefined in tsc's per-module output (the library, the tests). */
export const BUILD_ID: string | undefined =
  typeof __PANTO_BUILD_ID__ === "string" ? __PANTO_BUILD_ID__ : undefined;

/** How many verdicts are kept: a few per config file, for the texts and builds of late. */
const KEPT = 32;

/**
 * Which config texts this build has found valid, so that a later run reads an unchanged file
 * without loading the schema validator (zod and the schemas: about 13 ms of every start that has a
 * config file, a fifth of a `-p` run). A verdict is an empty file in `$PANTO_HOME/cache/valid-configs/`
 * named by a hash of the build id and the whole text: a changed text or another build (a new
 * version, a rebuilt checkout) finds none and is validated again, errors and all. Nothing of the
 * text is written. Only what passed is remembered, so a refused file is refused on every run.
 * Any failure to read or write a verdict only costs that speed-up.
 */
export interface ConfigVerdicts {
  /** True when this build found exactly this text valid before. */
  valid(text: string): Promise<boolean>;
  /** Records that this build found the text valid; never throws. */
  remember(text: string): Promise<void>;
}

/** The verdicts kept under `pantoHome`; undefined without a build id (nothing then tells builds apart). */
export function configVerdicts(pantoHome: string, buildId = BUILD_ID): ConfigVerdicts | undefined {
  if (buildId === undefined) return undefined;
  const folder = join(pantoHome, "cache", "valid-configs");
  const entry = (text: string) =>
    join(folder, createHash("sha256").update(`${buildId}\0`).update(text).digest("hex").slice(0, 32));
  return {
    valid: async (text) => {
      try {
        return (await stat(entry(text))).isFile();
      } catch {
        return false;
      }
    },
    remember: async (text) => {
      try {
        // Never the panto home itself: a run that had none does not leave one behind.
        if (!(await stat(pantoHome)).isDirectory()) return;
        await mkdir(folder, { recursive: true, mode: 0o700 });
        await writeFile(entry(text), "", { mode: 0o600 });
        await prune(folder);
      } catch {
        // Not remembered: the next run validates the text again.
      }
    },
  };
}

/** Keeps the KEPT newest verdicts. */
async function prune(folder: string): Promise<void> {
  const names = await readdir(folder);
  if (names.length <= KEPT) return;
  const aged = await Promise.all(
    names.map(async (name) => ({
      name,
      at: await stat(join(folder, name)).then(
        (info) => info.mtimeMs,
        () => 0,
      ),
    })),
  );
  aged.sort((a, b) => b.at - a.at);
  await Promise.all(aged.slice(KEPT).map(({ name }) => unlink(join(folder, name)).catch(() => undefined)));
}
