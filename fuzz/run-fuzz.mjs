// `npm run fuzz`: bundles the engine and every target in fuzz/targets/ with esbuild (each target
// with the panto source it reaches, so coverage is measured on exactly that bundle), then runs the
// engine. The bundles go to a folder of this process's own under .fuzz/ (they import the packages
// in node_modules, so they must sit inside the repository) and are removed on exit.
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
// PANTO_FUZZ_TARGETS points the engine at another folder of targets (the engine's own tests use it).
const targetsDir = process.env.PANTO_FUZZ_TARGETS ?? join(root, "fuzz", "targets");
const outdir = join(root, ".fuzz", "build", String(process.pid));
const names = readdirSync(targetsDir)
  .filter((name) => name.endsWith(".ts"))
  .map((name) => basename(name, ".ts"))
  .sort();

mkdirSync(outdir, { recursive: true });
const cleanUp = () => rmSync(outdir, { recursive: true, force: true });
process.on("exit", cleanUp);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(130));

await build({
  entryPoints: {
    "fuzz-main": join(root, "fuzz", "engine", "fuzz-main.ts"),
    "fuzz-worker": join(root, "fuzz", "engine", "fuzz-worker.ts"),
    ...Object.fromEntries(names.map((name) => [`targets/${name}`, join(targetsDir, `${name}.ts`)])),
  },
  outdir,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  sourcemap: "inline",
  logLevel: "warning",
});

const { fuzzMain } = await import(pathToFileURL(join(outdir, "fuzz-main.mjs")).href);
const targets = new Map(names.map((name) => [name, join(outdir, "targets", `${name}.mjs`)]));
const status = await fuzzMain(
  { root, workerFile: join(outdir, "fuzz-worker.mjs"), targets },
  process.argv.slice(2),
);
process.exit(status);
