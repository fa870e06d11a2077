/**
 * What starting a command in the sandbox and checking after it needs: the limits' shell, the pids
 * cgroup and the walk for git's control files. Loaded with the first command (`loadCommandParts`
 * in sandbox.ts), so a run that starts none never loads them.
 */
export { confinedShell, inCgroup } from "./confined-shell.js";
export { FolderListings } from "./find-repositories.js";
export { createPidsCgroup } from "./pids-cgroup.js";
export { putAsideGitChanges } from "./put-aside-git-changes.js";
