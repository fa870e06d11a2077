// Bundles the CLI into dist/bin/ for the installed `panto` command: one file for start-up, and one
// chunk per lazily imported part (each provider adapter with its SDK, the modes), so a run still
// loads only what it needs, from a handful of files instead of hundreds of modules.
// The command itself is dist/bin/panto.cjs (scripts/panto-bin.cjs), which answers --version at once
// and requires dist/bin/cli.cjs for everything else. The library entry (dist/index.js) and most
// tests keep using tsc's per-module output.
//
// Every module file costs Node a resolution, a read, a compilation and a link of its own: split by
// where each module is shared, a plain `panto -p` loaded 50 files, and about a third of its own
// start-up went on loading them. So the modules a plain print run loads statically (from run-cli,
// run-print and the provider factory, less what the entry, --help's parser and `panto acp` load
// anyway) go into one chunk, `print-*.cjs`; the rest is split as rolldown splits it by default. That
// set is found from a first, unwritten build's chunk graph, so a new import joins it by itself.
// The output is CommonJS so that, on Node 20, panto.cjs can keep V8's compiled code of these files
// between runs (Node 20 has no compile cache of its own, and none at all for ES modules).
// dist/bin/modules.json names the modules in each file, for the tests that pin what a run loads.
import { createHash } from "node:crypto";
import {
  chmodSync,
  copyFileSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { rolldown } from "rolldown";

const root = realpathSync(new URL("../", import.meta.url).pathname);
const outdir = `${root}/dist/bin`;
const inputOptions = {
  input: { cli: `${root}/src/cli/main.ts` },
  platform: "node",
  tsconfig: `${root}/tsconfig.json`,
  // __PANTO_BUILD_ID__ tells this build from any other (src/config/config-verdicts.ts).
  transform: { target: "node20", define: { __PANTO_BUILD_ID__: JSON.stringify(buildId()) } },
  // The entry exports nothing; say so, as the print group's includeDependenciesRecursively needs.
  preserveEntrySignatures: "allow-extension",
  logLevel: "warn",
  onLog(level, log, handler) {
    // A module both imported and lazily imported stays where the static import puts it: expected here.
    if (log.code === "INEFFECTIVE_DYNAMIC_IMPORT") return;
    handler(level, log);
  },
};
const outputOptions = {
  dir: outdir,
  format: "cjs",
  // import() of Node's own modules as require(): code compiled with V8's cache (panto.cjs) has no
  // loader for import() without an experimental flag.
  dynamicImportInCjs: false,
  entryFileNames: "[name].cjs",
  chunkFileNames: "[name]-[hash].cjs",
  // Doc comments are a fifth of the source and only slow the parse; licences stay.
  comments: { legal: true, annotation: true, jsdoc: false },
};
/** The lazily imported modules a plain `panto -p` run loads. */
const PRINT_ENTRIES = [
  "src/cli/run-cli.ts",
  "src/frontends/print/run-print.ts",
  "src/providers/create-model-client.ts",
];
/** What `panto --help` and `panto acp` load: the print chunk stays out of their way. */
const OTHER_STARTS = ["src/cli/parse-cli-args.ts", "src/frontends/acp/run-acp.ts"];

const first = await rolldown(inputOptions);
const { output: firstOutput } = await first.generate(outputOptions);
await first.close();
const chunks = chunksOf(firstOutput);
// The entry's own modules stay in it and the files it imports: every command loads them.
const entry = staticModules(chunks, ["src/cli/main.ts"]);
const print = without(staticModules(chunks, PRINT_ENTRIES), entry);
const others = staticModules(chunks, OTHER_STARTS);
/** Modules of a print run that --help or `panto acp` load too: one chunk of their own. */
const start = new Set([...print].filter((id) => others.has(id)));
for (const id of start) print.delete(id);
// The code every provider adapter shares (the request, retry and error code), loaded with the
// first request whatever the provider: one chunk, beside each adapter's own.
const adapters = chunks
  .find((chunk) => chunk.facadeModuleId === `${root}/src/providers/create-model-client.ts`)
  ?.dynamicImports.map((name) => chunks.find((chunk) => chunk.fileName === name)?.facadeModuleId);
if (adapters === undefined || adapters.length < 2) throw new Error("bundle-cli: no provider adapters found");
const reached = new Map();
for (const adapter of adapters) {
  for (const id of staticModules(chunks, [adapter.slice(root.length + 1)]))
    reached.set(id, (reached.get(id) ?? 0) + 1);
}
const providers = without(
  // What every adapter loads (two share the OpenAI SDK too, which the others must not load).
  new Set([...reached].filter(([, count]) => count === adapters.length).map(([id]) => id)),
  new Set([...entry, ...print, ...start, ...others]),
);

rmSync(outdir, { recursive: true, force: true });
const bundle = await rolldown(inputOptions);
const { output } = await bundle.write({
  ...outputOptions,
  codeSplitting: {
    groups: [
      ...[
        ["print", print],
        ["start", start],
        ["providers", providers],
      ].map(([name, modules]) => ({
        name,
        test: (id) => modules.has(id),
        // Not the modules they import from another set: that set's users would load this chunk too.
        // Each set less the ones before it is closed under import, so no chunk cycle comes of it.
        includeDependenciesRecursively: false,
      })),
    ],
  },
});
await bundle.close();
// Which modules each file holds, for the tests that pin what a run loads (rolldown marks only some
// modules with a `// path` line in its output).
const manifest = {};
for (const chunk of chunksOf(output)) {
  manifest[chunk.fileName] = chunk.moduleIds
    .filter((id) => !id.startsWith("\0"))
    .map(shownPath)
    .sort();
}
writeFileSync(`${outdir}/modules.json`, `${JSON.stringify(manifest, null, 1)}\n`);
const bin = `${outdir}/panto.cjs`;
copyFileSync(new URL("panto-bin.cjs", import.meta.url), bin);
chmodSync(bin, 0o755);

function without(set, removed) {
  return new Set([...set].filter((id) => !removed.has(id)));
}

function chunksOf(output) {
  return output.filter((item) => item.type === "chunk");
}

/** The modules of the chunks whose entry module is one of `entries`, and of every chunk they import statically. */
function staticModules(chunks, entries) {
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const modules = new Set();
  const seen = new Set();
  const visit = (chunk) => {
    if (seen.has(chunk.fileName)) return;
    seen.add(chunk.fileName);
    for (const id of chunk.moduleIds) modules.add(id);
    for (const name of chunk.imports) {
      const next = byName.get(name);
      if (next !== undefined) visit(next);
    }
  };
  for (const entry of entries) {
    const chunk = chunks.find((candidate) => candidate.facadeModuleId === `${root}/${entry}`);
    // A renamed entry would silently undo the grouping: fail the build instead.
    if (chunk === undefined) throw new Error(`bundle-cli: no chunk has ${entry} as its entry`);
    visit(chunk);
  }
  return modules;
}

/** "src/..." for panto's own modules, "node_modules/PACKAGE/..." for a package's (node_modules may be a symlink). */
function shownPath(id) {
  const packaged = id.lastIndexOf("/node_modules/");
  if (packaged >= 0) return id.slice(packaged + 1);
  return id.startsWith(`${root}/`) ? id.slice(root.length + 1) : id;
}

/**
 * A hash of everything the bundle is built from: every file under src/ (path and text) and the
 * lockfile (the packages bundled with it). Any change to either gives another id.
 */
function buildId() {
  const hash = createHash("sha256");
  const files = readdirSync(`${root}/src`, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => `${entry.parentPath}/${entry.name}`.slice(root.length))
    .sort();
  for (const file of [...files, "/package-lock.json"])
    hash
      .update(`${file}\0`)
      .update(readFileSync(`${root}${file}`))
      .update("\0");
  return hash.digest("hex").slice(0, 24);
}
