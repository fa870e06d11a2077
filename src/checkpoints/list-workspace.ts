import { CheckpointError } from "./checkpoint-error.js";
import { type CheckpointStore, storeGit } from "./checkpoint-store.js";
import { nulRecords } from "./git-process.js";

/** What git says differs from a session's index: paths it tracks, untracked ones, nested repositories, ignored ones. */
export interface Listing {
  tracked: string[];
  untracked: string[];
  nested: string[];
  ignored: string[];
}

/** One index of the store, and how much listing it may take. */
export interface ListingSource {
  store: CheckpointStore;
  indexFile: string;
  maxListingBytes: number;
}

/** Paths a refresh hands git by name at most; more, and it looks at everything. */
const MAX_NAMED_PATHS = 1000;
/** The ignored paths listed, at most (a workspace ignoring more is not examined for them). */
const MAX_IGNORED_LISTING_BYTES = 4 * 1024 * 1024;
const IGNORED = ["ls-files", "-z", "-o", "-i", "--exclude-standard", "--directory"];
const TAGGED = ["ls-files", "-z", "-t", "-m", "-d", "-o", "--exclude-standard"];

/** `diff-files --name-status -z`: status and path, alternating; every path listed differs from the index. */
function parseDiffFiles(records: readonly string[]): string[] {
  const paths: string[] = [];
  for (let index = 1; index < records.length; index += 2) paths.push(records[index] as string);
  return paths;
}

/** `ls-files -o`: untracked paths, a nested repository as its folder with a trailing "/". */
function parseOthers(records: readonly string[]): Pick<Listing, "untracked" | "nested"> {
  const untracked: string[] = [];
  const nested: string[] = [];
  for (const path of records) (path.endsWith("/") ? nested : untracked).push(path);
  return { untracked, nested };
}

/** `ls-files -t -m -d -o`: a tag, a space and the path; "?" for untracked, the others differ from the index. */
function parseTagged(records: readonly string[]): Omit<Listing, "ignored"> {
  const tracked = new Set<string>();
  const others: string[] = [];
  for (const record of records) {
    if (record.startsWith("? ")) others.push(record.slice(2));
    else tracked.add(record.slice(2));
  }
  return { tracked: [...tracked], ...parseOthers(others) };
}

/** Pathspecs naming exactly these paths (a folder: it and what is inside it). */
function literal(paths: readonly string[]): string[] {
  return ["--", ...paths.map((path) => `:(literal)${path}`)];
}

function tooLarge(source: ListingSource, error: unknown): never {
  if (error instanceof CheckpointError && error.message.includes("listed more than"))
    throw new CheckpointError(
      `${source.store.workspace.root} holds too many files to checkpoint (its listing passed ${source.maxListingBytes} bytes); add a .gitignore, or start panto in the project's folder`,
    );
  throw error;
}

/**
 * Asks git about the whole workspace: which tracked paths differ from the index and which
 * untracked, non-ignored paths exist (and, when asked, the ignored ones). With `parallel`, the two
 * questions go to two processes at once (the stat pass then runs on several threads); for a small
 * workspace one process costs less than starting two.
 */
export async function listWorkspace(
  source: ListingSource,
  withIgnored: boolean,
  parallel: boolean,
): Promise<Listing> {
  const { store, indexFile } = source;
  const limit = { maxOutputBytes: source.maxListingBytes };
  const [tracked, others, ignored] = await Promise.all([
    parallel ? storeGit(store, indexFile, ["diff-files", "--name-status", "-z"], limit) : undefined,
    storeGit(store, indexFile, parallel ? ["ls-files", "-z", "-o", "--exclude-standard"] : TAGGED, limit),
    withIgnored
      ? storeGit(store, indexFile, IGNORED, { maxOutputBytes: MAX_IGNORED_LISTING_BYTES }).catch(
          () => undefined,
        )
      : undefined,
  ]).catch((error: unknown) => tooLarge(source, error));
  const listed =
    tracked === undefined
      ? parseTagged(nulRecords(others.stdout))
      : { tracked: parseDiffFiles(nulRecords(tracked.stdout)), ...parseOthers(nulRecords(others.stdout)) };
  return { ...listed, ignored: ignored === undefined ? [] : nulRecords(ignored.stdout) };
}

/**
 * Asks git about the named paths only (each one, and what is inside it when it is a folder). Only
 * paths git did not name as tracked or untracked (deleted, unchanged, or ignored) are then asked
 * about as ignored ones, when the caller wants those. Many paths: the whole workspace.
 */
export async function listPaths(
  source: ListingSource,
  paths: readonly string[],
  withIgnored: boolean,
): Promise<Listing> {
  if (paths.length > MAX_NAMED_PATHS) return await listWorkspace(source, withIgnored, true);
  const { stdout } = await storeGit(source.store, source.indexFile, [...TAGGED, ...literal(paths)]);
  const listed = parseTagged(nulRecords(stdout));
  const named = [...listed.tracked, ...listed.untracked, ...listed.nested];
  const unaccounted = paths.filter(
    (path) => !named.some((known) => known === path || known.startsWith(`${path}/`)),
  );
  if (!withIgnored || unaccounted.length === 0) return { ...listed, ignored: [] };
  const ignored = await storeGit(source.store, source.indexFile, [...IGNORED, ...literal(unaccounted)]);
  return { ...listed, ignored: nulRecords(ignored.stdout) };
}

/** The wholly ignored folders of the workspace ("dir/"). */
export async function ignoredFolders(source: ListingSource): Promise<string[]> {
  const { stdout } = await storeGit(source.store, source.indexFile, IGNORED, {
    maxOutputBytes: MAX_IGNORED_LISTING_BYTES,
  }).catch(() => ({ stdout: Buffer.alloc(0) }));
  return nulRecords(stdout).filter((path) => path.endsWith("/"));
}
