#!/usr/bin/env node
// The installed `panto` command, copied to dist/bin/ by bundle-cli.mjs. `panto --version` answers
// here without loading anything else; every other command line runs the bundled CLI
// (dist/bin/cli.cjs, built from src/cli/main.ts).
"use strict";

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
  process.stdout.write(`${readVersion()}\n`);
} else {
  if (!enableCompileCache()) keepCompiledCode();
  require("./cli.cjs");
}

/**
 * Node 22.1 and later keep compiled code on disk, so later starts skip most parsing and compiling
 * (NODE_DISABLE_COMPILE_CACHE=1 turns it off). Turned on here, before the bundle loads, so the
 * bundle itself is cached too, not only the chunks it loads after main.ts turns it on. Only in an
 * existing temporary folder outside /proc and /sys (the rule main.ts keeps too): Node would create a
 * missing TMPDIR that panto must refuse, and spins when asked to create a folder under /proc.
 * False when this Node has no such cache.
 */
function enableCompileCache() {
  const { enableCompileCache: enable } = require("node:module");
  if (enable === undefined) return false;
  const folder = temporaryFolder();
  try {
    if (folder !== undefined) enable(require("node:path").join(folder, "node-compile-cache"));
  } catch {
    // A cache folder that cannot be created: only the speed-up is lost.
  }
  return true;
}

/**
 * Node 20's stand-in for that cache: the bundle's files are compiled with V8's code cache, kept in
 * a folder of this user's in the temporary folder (`panto-code-cache-UID`, mode 700), one file per
 * bundle file, named by a hash of the file's text and of Node's version and flags, so a new build or
 * another Node never reads an old entry (and V8 itself refuses one that does not fit). Compiling the
 * start-up chunk from its cache takes a fifth of the time, and the functions a run compiled are kept
 * too. The cache is written once, when the process exits or just before the first fetch request
 * (main.ts then changes V8's flags, which would make V8 refuse what is written after). Nothing here
 * may break a run: a folder that is not this user's alone, unreadable or unwritable, or an entry V8
 * rejects, only costs the speed-up. NODE_DISABLE_COMPILE_CACHE=1 turns it off, as it does Node's.
 */
function keepCompiledCode() {
  if (process.env.NODE_DISABLE_COMPILE_CACHE !== undefined && process.env.NODE_DISABLE_COMPILE_CACHE !== "")
    return;
  const tmp = temporaryFolder();
  if (tmp === undefined || typeof process.getuid !== "function") return;
  const fs = require("node:fs");
  const path = require("node:path");
  const Module = require("node:module");
  const vm = require("node:vm");
  const { createHash } = require("node:crypto");
  const folder = path.join(tmp, `panto-code-cache-${process.getuid()}`);
  const bundle = __dirname + path.sep;
  // V8 refuses code made by another version or with other flags: such runs keep entries of their own.
  const runtime = [process.version, process.arch, ...process.execArgv, process.env.NODE_OPTIONS ?? ""].join(
    "\0",
  );
  /** Entries to write: [file, script], for the files compiled without a usable cache. */
  const pending = [];
  let folderChecked;
  const ownFolder = () => {
    if (folderChecked !== undefined) return folderChecked;
    try {
      fs.mkdirSync(folder, { mode: 0o700 });
    } catch {
      // There already, or it cannot be made: the check below tells which.
    }
    try {
      // Another user's folder, a symlink or a folder others may write to could hold code panto would run.
      const info = fs.lstatSync(folder);
      folderChecked = info.isDirectory() && info.uid === process.getuid() && (info.mode & 0o077) === 0;
    } catch {
      folderChecked = false;
    }
    return folderChecked;
  };
  const compile = Module.prototype._compile;
  Module.prototype._compile = function compileWithCache(content, filename) {
    if (!filename.startsWith(bundle) || !filename.endsWith(".cjs") || !ownFolder())
      return compile.call(this, content, filename);
    const hash = createHash("sha256").update(`${runtime}\0`).update(content);
    const entry = path.join(folder, `${path.basename(filename, ".cjs")}-${hash.digest("hex").slice(0, 24)}`);
    let cachedData;
    try {
      cachedData = fs.readFileSync(entry);
    } catch {
      // Not cached yet.
    }
    // As Node compiles a CommonJS file: its text (without a #! line) in the module wrapper.
    const source = content.startsWith("#!") ? `//${content}` : content;
    const script = new vm.Script(Module.wrap(source), {
      filename,
      ...(cachedData === undefined ? {} : { cachedData }),
    });
    if (cachedData === undefined || script.cachedDataRejected === true) pending.push([entry, script]);
    const wrapper = script.runInThisContext({ displayErrors: true });
    return wrapper.call(this.exports, this.exports, requireFor(this), this, filename, path.dirname(filename));
  };
  const requireFor = (module) => {
    const required = (id) => module.require(id);
    required.resolve = (request, options) => Module._resolveFilename(request, module, false, options);
    required.resolve.paths = (request) => Module._resolveLookupPaths(request, module);
    required.main = require.main;
    required.cache = Module._cache;
    required.extensions = Module._extensions;
    return required;
  };
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    for (const [entry, script] of pending) {
      const temporary = `${entry}.${process.pid}.tmp`;
      try {
        fs.writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
        fs.renameSync(temporary, entry);
      } catch {
        try {
          fs.rmSync(temporary, { force: true });
        } catch {
          // Left behind in the temporary folder: harmless.
        }
      }
    }
  };
  require("node:diagnostics_channel").subscribe("undici:request:create", write);
  process.on("exit", write);
}

/** The temporary folder, resolved, when it is an existing folder outside /proc and /sys. */
function temporaryFolder() {
  try {
    const { realpathSync, statSync } = require("node:fs");
    const folder = realpathSync(require("node:os").tmpdir());
    if (/^\/(proc|sys)(\/|$)/.test(folder) || !statSync(folder).isDirectory()) return undefined;
    return folder;
  } catch {
    return undefined;
  }
}

function readVersion() {
  const { readFileSync } = require("node:fs");
  const { join } = require("node:path");
  try {
    return JSON.parse(readFileSync(join(__dirname, "..", "..", "package.json"), "utf8")).version ?? "0.0.0";
  } catch {
    return "0.0.0";
  }
}
