import { builtInCommandInfo } from "../runtime/commands/built-in-commands.js";

/** Everything `panto --help` shows after the generated list of options. */
export function helpAppendix(): string {
  return `
Modes:
  panto                         interactive session in the terminal
  panto "PROMPT"                the interactive session, starting with PROMPT (without a terminal
                                on stdin and stdout it runs as panto -p "PROMPT")
  panto help [COMMAND]          this help, or a command's (same as --help)
  panto -p "PROMPT"             one prompt; only the final answer goes to stdout
  echo "PROMPT" | panto -p      the prompt comes from stdin when -p has no value
  git diff | panto -p "PROMPT"  with both, the prompt is sent, then stdin as a <stdin> block
                                (read to its end: give </dev/null to send nothing from it)
  panto -p "explain @FILE"      @PATH attaches that file in print and JSON modes too
  panto -p "PROMPT" --image FILE
                                sends a PNG, JPEG, GIF or WebP image with the prompt (repeatable);
                                @FILE of an image, or its path pasted in the terminal, attaches it
                                as an image too. Only models that accept images get one (known
                                from the name and API; config models.ID.images says otherwise);
                                limits: 5 MB base64, 8000 px a side (refused, never scaled down).
                                Stored once beside the session file (NAME.images/SHA256.EXT)
  panto --json -p "PROMPT"      one JSON event per line on stdout (implies print mode)
  panto --input-format stream-json --json
                                one long-lived session fed one JSON message per stdin line
                                (Claude Code's shapes; --output-format stream-json = --json):
                                {"type":"user","message":{"role":"user","content":TEXT|[BLOCKS]}}
                                  text and image ({"source":{"type":"base64","media_type","data"}})
                                  blocks; run in order, queued while a turn runs; slash commands
                                  and !COMMAND work as typed
                                {"type":"control_request","request_id":ID,"request":{"subtype":
                                  "interrupt"}} stops the running turn; answered by
                                  {"type":"control_response","response":{"subtype":"success",
                                  "request_id":ID}} (other subtypes: subtype "error", with error)
                                {"type":"permission_response","id":ID,"decision":"allow"|
                                  "allow_always"|"deny"} answers a permission_request event
                                  (allow_always: that tool for the rest of the session)
                                Each input ends with a result event; a bad line is an error
                                event {code: "usage", message: "stdin line N: ..."} and the session
                                goes on. When stdin ends, the running and queued inputs finish,
                                then done; exit status 0, or the last failure's (a result's
                                exit_code, 2 for a bad line). A question still open when stdin
                                ends is denied. Context warnings and prepared compactions run as
                                in the terminal.
  panto demo [--keep]           offline simulation of an overflow, a compaction and a retry;
                                its temporary folder is removed at the end (--keep keeps it)
  panto sessions [--json]       this project's sessions, newest first: short id, started, last
                                written, turns, compactions, size, first prompt (counts marked
                                ≥ are lower bounds read from the file's tail), a session started
                                from another marked "↳ fork of ID at turn N" or "↳ handoff of
                                ID"; --json prints one
                                array of {id, short_id, path, created, modified, first_prompt,
                                turns, compactions, counts_exact, size_bytes, parent}
  panto acp [-m P/M] [--max-turns N] [--sandbox MODE]
                                an Agent Client Protocol agent on stdin/stdout for editors (Zed,
                                JetBrains, Neovim, Emacs): sessions are panto's (-r resumes them),
                                streamed turns, tool calls with diffs, permission requests (bash
                                runs in the sandbox unasked; each escape from it is asked with its
                                reason, never "always"), modes
                                (plan, ask, accept-edits, allow-all) and the model as config options,
                                cancel, load/resume/list/close, compactions as compaction_update
                                and usage_update, context warnings, clearings and compactions
                                prepared ahead as usage_update with panto/ _meta; stdout carries
                                protocol only; SIGTERM closes
                                the sessions and exits 143 (README: Editors)
  panto -r [ID]                 resume by id or file-name prefix or path; -r alone picks in a
                                terminal (↑/↓, type to filter, Enter; Esc/Ctrl-C exit 130) and
                                elsewhere prints the list to stderr and exits 2; a session resumed
                                in the terminal shows its last three turns (older ones collapsed),
                                and the banner names the session id from the start
  panto export [SESSION] [-o FILE] [--format html|md|json] [--full]
                                a session (id prefix or path; default: this project's latest) as
                                one offline HTML page with its compaction timeline, in
                                <session name>.html beside the session file, not in the project
                                (-o FILE into an existing folder, -o - for stdout; md/json also by
                                -o extension); tool results cut to 4,000 characters unless --full
  panto import FILE|DIR [--dry-run] [--json]
                                a Claude Code, Codex or pi session file (format told by content), or
                                each *.jsonl one under DIR, made a session of this project: turns,
                                thinking, tool calls paired with results, images as placeholders,
                                the source's compactions as compaction blocks, unknown entries as
                                notes; a second import of the same unchanged file names the session
                                made first; panto -r ID continues it (README: Import a session)
  panto fidelity [SESSION] [--fresh] [--prompt FILE] [--compaction-model P/M] [--probe]
                 [--baseline] [-m P/M] [--json]
                                what the compaction in effect kept of the summarised turns' paths,
                                commands, error lines and user instructions: in the summary, in the
                                whole block, and (--probe) answered by the model after the compacted
                                context, then after it with the recall tool answered from the
                                session file (the column "answered (recall)"; --baseline: after the
                                full context too); normalised matching, no judge model. Reads the
                                session only. --fresh: a new compaction of the current context,
                                written nowhere (--prompt, --compaction-model try another
                                COMPACTION.md or summariser). --json: one object
                                {type: "fidelity", session, compaction: {trigger, model, fresh},
                                facts: [{kind, text, in_summary, in_block, answered,
                                answered_recall, answered_full}], totals: {facts, in_summary,
                                in_block, answered, answered_recall, answered_full}, requests}.
                                Exit 2: no compaction in effect (without --fresh)
  panto sandbox [--sandbox MODE] [--json]
                                builds the sandbox this project's config asks for around a scratch
                                folder, tries each rule for real (writes outside, protected paths,
                                credentials, network, host processes, process tree) and prints what
                                holds (✓/✗); --json: {ok, mode, probed_mode, network, launcher,
                                checks: [{id, rule, ok, detail}], failure?}. Exit 1 when a rule
                                does not hold or the sandbox cannot start
  panto permissions [--json]    the permission rules of every config file, deny first, each with
                                its layer, key and file; --json: {rules: [{list, rule, layer,
                                index, file}], files}
  panto rewind [SESSION] [--to TURN | --undo] [--code | --conversation | --both] [--dry-run]
               [--force] [--json]
                                take a session (default: this project's latest) back to before
                                turn TURN: its files (restored where they are still what panto
                                recorded; a file changed since is a conflict left alone unless
                                --force), its conversation (a rewind entry; replay drops the turns),
                                or both (default). --undo takes the latest rewind back. --dry-run
                                changes nothing and shows what would change. Without --to in a
                                terminal: a list to choose from; elsewhere the list goes to stderr
                                (exit 2). Exit 1: a checkpoint of those turns is missing or failed,
                                so the files cannot be rewound (--conversation still can)
  panto sessions rm SESSION [--json]
                                delete a session (not one open elsewhere) and the checkpoint
                                content only it used; --json: {type: "session_removed", id, path,
                                bytes, checkpoint_objects, checkpoint_bytes}
  panto --fork SESSION[@TURN]   continue (in any mode) in a new session started from SESSION
                                after turn TURN (default: all of it); the parent is unchanged

Interactive keys:
  Enter sends; a paste is one prompt, sent only on Enter (bracketed paste; its breaks show as ↵,
  a paste over 10 lines or 2,000 characters as [pasted N lines #k], sent whole);
  Alt-Enter (Shift-Enter where the terminal reports it) or a trailing \\ inserts a line break;
  Up/Down history, Tab completes commands, Esc Esc opens the rewind list (as /rewind),
  Shift+Tab steps the mode: ask, accept-edits, plan (allow-all too when started with it), Ctrl-C
  cancels a request (twice at an empty prompt exits), Ctrl-D exits. A status line shows what
  panto waits for (the model, a retry, a tool).
  Answers are rendered as Markdown with colour; code and paths are never wrapped by panto, so
  they copy back exactly. NO_COLOR (and -p, --json) keep the plain Markdown.

Slash commands (interactive, and also as the -p prompt, e.g. panto -c -p "/compact"):
${builtInCommandInfo().formatList()}

In the interactive session:
  !COMMAND        run a shell command yourself (as bash: same timeout, output cap and environment
                  without secrets; no approval); it and its output join the conversation
  @PATH           in a prompt, attaches that file's text (Tab completes paths; text files up to
                  100,000 characters; a missing file is an error and nothing is sent)
  Tab             completes slash commands, /model names (from the provider's list) and @paths
  Ctrl-C          cancels the answer; the prompt and the answer so far stay in the context,
                  marked interrupted (tool calls that had not run are recorded as not run)
  On exit (Ctrl-D, /exit, Ctrl-C twice) panto prints the session id and "panto -r ID".
  A session file is written with the first message: a launch that sends nothing leaves none.

Models: the -m model, else the model a resumed session was using (recorded with /model), else
  config "model", else the default of the first provider whose key is set: ANTHROPIC_API_KEY
  anthropic/claude-sonnet-4-5, OPENAI_API_KEY openai/gpt-5, GEMINI_API_KEY or GOOGLE_API_KEY
  google/gemini-2.5-pro (named at startup). /model lists what the provider's list endpoint
  reports and refuses a name it does not list, naming the nearest. A model the provider does
  not know (error code invalid_request) is reported as unknown, with how to list and switch.

Compaction controls: /compact --preview plans without a model call; /compact --force
  summarises all but the latest turn even when everything fits keep_verbatim_tokens (in ACP:
  _meta {"panto/compact": {"force": true}} on the session/prompt); /uncompact takes the
  compaction in effect back (repeat to walk back further); /pin notes survive every compaction
  word for word; /summary edit stores your text (from $EDITOR, or given as /summary edit TEXT)
  as a compaction with trigger "edited"; failed compactions are kept on record (/session lists
  them).
  Sizes: every figure for "the context" (the status line after an answer, /context, the /compact
  and /uncompact reports, the preview, /session, JSON tokens_before/tokens_after, ACP usage_update)
  is the next request's size, system prompt and tools included, from the provider's numbers where
  known ("~" marks the local estimate alone); the window it is a share of is learned, reported by
  the server, set in config "models", or the model's published one, and is shown only.
  After the summary the block says which turns it stands for ("This summary stands for turns 1
  to N of this session...") and that recall finds them; then the restored facts, from the
  summarised turns' tool calls and results, never from the summary: files changed (with their
  turns), the latest run of each command (exit status, first error line), the paths, commands
  and errors the summary left out, and an "Unverified:" line where the summary claims a pass, a
  fix or a change the record contradicts (conservative: hedged or negated sentences are never
  checked).

Task list: the model keeps one with the todo tool (each call replaces the whole list; at most one
  item in_progress; evidence names the command or file an item depends on). A completed item
  whose command's latest run failed, or whose file changed after the latest passing run, is
  flagged ("completed, but the latest \`npm test\` (turn 14) exited 1"), worked out again each time,
  so the flag clears once it passes. /todo shows the list. It lives in the session (resume, fork,
  rewind keep it), every compaction carries it in a fixed section of the block, a handoff carries
  it, and its outputs are never cleared. The terminal prints it as it changes and counts it in the
  status line (tasks 3/7: completed of all, cancelled in neither); ACP sends it as a plan update
  (priority medium; cancelled and flagged items under _meta "panto/todo"), also on load/resume;
  panto export (HTML and md) shows it at each change, listed and marked on the timeline.

Handoff: /handoff GOAL drafts the first prompt of a fresh session (the model writes where things
  stand, decisions and their reasons, files and commands that matter, open problems; panto adds
  the goal, the pinned notes and the ledger); the interactive session shows it and asks y (start
  it), e (edit it in $VISUAL/$EDITOR first) or n. The new session's header names the old one as
  its parent (panto sessions shows "↳ handoff of ID"); recall there searches the old one too; the
  old session stays resumable. /handoff --edit: write the sections yourself (no model call). In
  print mode (panto -c -p "/handoff GOAL") the draft is printed and the new session is started,
  its first answer printed, only with --yes.

Context and cost:
  After each answer the interactive session prints a dim line: the context size in tokens (the
  latest request's reported prompt size plus what came after; "~" when only estimated), and the
  share of the window where it is known: learned from an overflow, or reported by the server
  (llama.cpp /props, Ollama /api/show, LM Studio /api/v0/models, OpenRouter /models; only the
  endpoint of the server's kind, known from the provider's name or default port, else /models;
  asked once, in the terminal and ACP only, kept per base URL in $PANTO_HOME/context-windows.json
  for print and JSON modes; never guessed, never a compaction trigger but with config
  compact_when_cold). /cost totals the session's tokens per model
  (compaction and task subagents apart, resumed history included) with a cost where config
  "prices" has one, and says apart what clearing saved.
  Clearing (config "clearing"): when the provider reports a prompt larger than trigger_tokens,
  panto replaces old tool outputs in the context with one line each, e.g. [cleared to save
  context: output of bash "npm test" (exit 1), 12,345 tokens; recall {"tool_result": "toolu_01"}
  reads it back]; the calls stay, the keep_recent latest outputs and the turn in flight stay
  whole, and it happens only in batches of at least min_reclaim_tokens (each batch rewrites the
  prompt cache from the first output it clears), or at once when the cache has gone cold (no
  request for cache_ttl_seconds, from the session's recorded times). The file keeps every
  output; a clearing is an entry, /unclear takes the latest back (and pauses clearing until the
  context has grown by min_reclaim_tokens), /context shows what is cleared.

Tools:
  recall searches this session's whole history (summarised, failed, undone and rewound turns
  included, and the session it was handed off from) and reads turns back by number: {"query": "words
  "exact phrase"", "kind": user|assistant|tool_call|tool_result|TOOL, "limit": 8} or
  {"turn": N, "to": M, "offset": C}, and one tool output whole by its call id:
  {"tool_result": "ID", "offset": C} (what a cleared output's stub names); hits best first (most words, newest first among equals)
  with turn, time, role or tool, how the turn stands and stale notes (a file read before a later
  edit, a command run again with another result; outputs cleared from the context are marked
  so). Always offered; it only reads.
  read, ls, glob and grep always run; inside the sandbox (the default) so does bash. write,
  edit (and bash with --sandbox full) change things: the interactive mode asks with one key
  (y = once, a = always, n = no, then an optional reason the model is told). a shows the
  permission rule it adds, as written (Bash(npm run test:*), Edit(./src/**)), and one more key
  keeps it: Enter/s this session, l the project's .panto/config.local.json, u the user config
  (paths shown; the file is validated and replaced whole); a call no rule can name: the tool, this
  session (/tools lists those grants). /permissions lists the rules numbered, /permissions remove
  N|RULE takes one out at once (and out of its file; managed rules cannot be); /last shows the
  last output whole;
  print and JSON modes deny them unless --allow-tools is given (the model is told the user
  did not allow it).
  Plan mode (--plan, /plan [on|off], Shift+Tab, ACP mode "plan"): the model reads, searches,
  fetches (asked as usual) and keeps the task list; write, edit, MCP tools not marked read-only
  and requests to leave the sandbox are refused with an error naming plan mode; bash runs in
  the sandbox made read-only (nothing writable but its private /tmp), and with --sandbox full
  only a short read-only list runs (git status/log/diff/show, ls, cat, head, tail, wc, grep,
  rg, find without -exec/-delete; no > or $). The tool definitions never change; the system
  prompt's last section says plan mode is on. /plan off returns to the mode before it with the
  plan's task list in force; in the terminal, after a plan-mode answer, y accepts the plan and
  leaves plan mode. -p --plan ends with the plan as the answer.
  Tools work on regular files only (a pipe, socket or device is refused at once), and a call
  still running after 2 minutes (bash: its own timeout) is abandoned with an error result.
  web_fetch {url} fetches an http(s) page in panto's own process and returns it as Markdown
  (links kept, made absolute; text and JSON as they are; PDFs and other binaries refused with
  their type and size), its first line marking it untrusted web content, then the final URL and
  the redirects followed. At most 2 MiB of the body is read (the rest never downloaded), 50,000
  characters returned, 30 s allowed; redirects followed on the same host only (at most 5), one to
  another host reported, not followed; no cookies, credentials or keys sent. It runs outside the
  sandbox, so every call is asked, in every sandbox mode, unless a rule allows it
  (WebFetch(domain:docs.rs), WebFetch(domain:*.python.org), WebFetch), "always" was answered,
  or --allow-tools / allow-all is in force; -p and --json deny it otherwise. Loopback,
  link-local, private (RFC 1918, fc00::/7, 100.64/10), unspecified and metadata addresses are
  refused, checked on every address the name resolves to at every hop, unless config
  "web_fetch": {"allow_private": true}.
  bash {"run_in_background": true} starts a command (a dev server, a watcher) and returns at once
  with a task id (bg1, ...): same sandbox, environment and approvals as a foreground bash call.
  bash_output {id, filter?} returns what it printed since the last read (bounded like bash;
  filter: a regular expression lines must match), kill_task {id} stops it and every process it
  started; both run without a question. Output goes to <name>.tasks/<id>.log beside the session file (work.jsonl: work.tasks/) (recall
  {"task": "bg1"} reads it back); the model is told in one line, with its next request, when a
  task ends. Tasks die with the session, a crash or kill -9 of panto included. With the network
  off (the default), from the first background command on every command of the session shares
  one loopback-only network namespace (needs nsenter), so a background server answers later
  commands on 127.0.0.1 and nothing else. /tasks lists them (/tasks kill ID stops one); the
  status line counts those running.

Sandbox (--sandbox MODE, config "sandbox"; Linux: bubblewrap, macOS: sandbox-exec):
  workspace-write (default)  the model's commands may write the project, a private /tmp and
                             config "sandbox.writable_roots"; everything else is read-only
  read-only                  only the private /tmp is writable
  full                       no sandbox: commands run with your rights (as in other agents):
                             they can read your credentials and change any of your files;
                             output is still redacted of known keys (also base64, hex or
                             reversed), which is no boundary
  In both confined modes: the network is off (the host's 127.0.0.1 too) unless
  "sandbox.network" is true; .panto/, .mcp.json and git's control files (config,
  config.worktree, commondir, hooks/ and the folder core.hooksPath names, modules/,
  info/attributes, worktrees' control files, .git pointers, a rebase's or cherry-pick's exec
  lines and merge strategies) stay read-only even inside writable folders, in every repository at any depth (what
  a command changes in one is moved aside after it, with a note; a changed .gitmodules is
  reported); a command may run "sandbox.max_processes" processes and threads at once (default
  4096), each allocating up to "sandbox.max_memory_mb" MB (default half the machine's memory);
  credentials (~/.ssh, ~/.aws, ~/.config/gh, ~/.netrc, ~/.docker, ~/.gnupg, ~/.kube,
  ~/.npmrc and the like: the README lists them), $PANTO_HOME and "sandbox.hidden_paths" are
  hidden; commands get their own process ids and no new privileges,
  and the whole process tree dies on timeout or Ctrl-C. read, write, edit, ls, glob, grep and
  @path apply the same rules (symlinks resolved) and name the rule that refused. A command
  that needs more may ask to leave the sandbox with a reason: that is asked every time (never
  covered by "always" or --allow-tools) and refused in print and JSON modes unless
  --allow-unsandboxed is given. Your own !cmd, hooks and MCP servers run unconfined, as
  configured. Without bubblewrap panto exits 2 saying how to install it, or to choose
  --sandbox full; whether the sandbox starts (user namespaces disabled, AppArmor, a
  container) is checked before the model's first command, which fails, unrun, saying why and
  how to fix it. The banner, /session, the JSON session_started event and exports name the
  mode; panto sandbox shows what holds on this machine.

Checkpoints and rewind:
  Around every call of write, edit, bash (and other tools that may change files) panto records
  what changed, outside any sandbox: write and edit store the file's content before and after;
  bash gets a snapshot of the workspace's tracked and untracked, non-ignored files before and
  after (the git work tree, else the project folder). Content goes to a private store in
  $PANTO_HOME/checkpoints/<project>/; the project's .git is only read. Each call is a
  "checkpoint" entry in the session, with what it could not cover (ignored files it touched,
  files over checkpoint_max_file_bytes, nested repositories). If git is missing or the store
  fails, the entry says "checkpoints unavailable: ..." and those files cannot be rewound (the
  conversation still can). /rewind, Esc Esc and panto rewind take files and conversation back;
  a rewind is itself an entry, so it can be rewound (--undo). /fork and --fork start a new
  session from a turn of this one.

Hooks (config "hooks", Claude Code's shape; user and project hooks both run, user first):
  { "hooks": { "PreToolUse": [ { "matcher": "bash", "hooks": [
      { "type": "command", "command": "./check.sh", "timeout": 10 } ] } ] } }
  Events: SessionStart (matcher: source startup|resume|clear), UserPromptSubmit, PreToolUse and
  PostToolUse (matcher: tool name, "a|b", "*" or a regular expression; names match whole and
  case-insensitively), PreCompact and PostCompact (matcher: trigger manual|overflow|cold_cache), Stop (the
  agent finished answering). Each command runs with /bin/bash -c in the project root, the event
  as JSON on stdin (session_id, transcript_path, cwd, hook_event_name, and per event: source;
  prompt; tool_name, tool_input, tool_use_id, tool_response {is_error, text}; trigger,
  custom_instructions, context_tokens, keep_verbatim_tokens; compact_summary, model,
  turns_summarised, turns_kept, tokens_before, tokens_after; stop_hook_active,
  last_assistant_message), the environment bash gets (no provider keys) plus PANTO_PROJECT_DIR,
  and a timeout (default 60 s; then its process group is killed). Exit 0: go on (stdout
  {"decision": "block", "reason": "..."} or, for PreToolUse, hookSpecificOutput.permissionDecision
  "deny" with permissionDecisionReason also blocks). Exit 2: block with stderr as the reason:
  UserPromptSubmit drops the prompt (not sent, not written; exit 1 in print mode), PreToolUse
  denies the call (the model sees the reason as its result), PreCompact stops a manual /compact
  or a cold_cache one (an overflow compaction cannot be blocked: a warning says so). Other events cannot block. Any
  other status, a timeout or a command that cannot start is a warning; the session goes on.
  Hooks run one after another, in config order. Every run is a JSON "hook" event.

Custom commands (Markdown files; the first folder holding a name wins):
  <project>/.panto/commands/NAME.md, <project>/.claude/commands/NAME.md, $PANTO_HOME/commands/NAME.md
                  are /NAME: the body is sent as the prompt, with $ARGUMENTS (all arguments),
                  $1..$9 (words; "quotes" group) and @PATH attachments filled in (no placeholder:
                  the arguments are appended). Optional front matter: description, argument-hint
                  (shown in /help and Tab completion), model (provider/model for this command
                  only), allowed-tools (names that run without a question during the command).
                  A name a built-in has, or a broken file, is a warning naming the file (and line
                  and key); the other commands still load.

Agent Skills (folders with a SKILL.md: front matter name, description, then instructions):
  <project>/.panto/skills/, <project>/.agents/skills/, <project>/.claude/skills/,
  $PANTO_HOME/skills/     each skill's name and description is listed in the system prompt; the
                  skill tool loads its instructions and names its folder (other files are read
                  with read). A compaction block names the skills loaded in the turns it
                  summarised. /skills lists them.

Subagents (the task tool): the model hands a self-contained job to a child agent with its own
  context and session file (listed under the parent by panto sessions; panto -r ID resumes it).
  It has the parent's model, tools (no task), approvals (questions labelled with the child) and
  hooks, and compacts on its own. The parent gets a report: a headline naming the child's session,
  the final answer in full (a child stopped on a tool call is asked once to conclude), the files
  it read and changed, the commands it ran with their outcomes. A parent compaction keeps one line
  per task. Calls in one reply run in parallel (max_parallel_tasks); --max-turns and Ctrl-C
  reach the children. Custom agents: <project>/.panto/agents/NAME.md,
  <project>/.claude/agents/NAME.md, $PANTO_HOME/agents/NAME.md (front matter name, description,
  tools, model; the body is the system prompt); a broken file is a warning naming it.

Configuration (JSON; each file wins per key over the ones before it):
  $PANTO_HOME/config.json       user settings (PANTO_HOME defaults to ~/.panto)
  <project>/.panto/config.json  project settings; <project> is the nearest ancestor of the
                                working directory holding .panto/ or .git/
  <project>/.panto/config.local.json  your own settings for the project (not committed)
  /etc/panto/managed.json       managed settings no other file can loosen (macOS: /Library/
                                Application Support/panto/managed.json; PANTO_MANAGED_SETTINGS)
  Keys:
    model                 "provider/model" used when --model is not given
    compaction_model      model that writes compaction summaries (falls back to the active model)
    keep_verbatim_tokens  recent turns kept verbatim by a compaction, in tokens (default 20000)
    max_output_tokens     cap on each answer's length
    restore_facts         false: no restored facts after a summary (the ledger of files and
                          commands, the facts it left out, the Unverified check) (default true)
    prepare_compaction_at a fraction (0-1) of a known context window: a turn that ends past it,
                          even after the clearing of old tool outputs due next, has the next
                          compaction's summary written in the background (long-lived sessions:
                          the terminal, ACP, stream-json input and the program API; never a
                          one-shot -p); the next overflow, or a /compact of the same turns,
                          applies it without a summary request; dropped if the history changes
                          (rewind, /uncompact, /summary edit); /summary shows it, /summary discard
                          drops it (default: unset, nothing prepared)
    compact_when_cold     a fraction (0-1) of a known context window: at the first request after
                          the prompt cache has gone cold (clearing.cache_ttl_seconds without a
                          request, by the session's recorded times), a context past it is
                          compacted first (trigger cold_cache), since that request writes the
                          whole prompt to the cache again anyway; in long-lived sessions its
                          summary is written in the background a second past the cache's lifetime,
                          so your next prompt does not wait (a one-shot -p or --json run waits
                          for the summary request) (default: unset, compaction waits for an
                          overflow)
    context_warnings      fractions of a known window at which the context warns, once each until
                          it drops below again (default [0.7, 0.85, 0.95]; [] never)
    checkpoints           false: record no checkpoints around tool calls (rewinds then take back
                          the conversation only; default true)
    checkpoint_max_file_bytes  files larger than this are left out of checkpoints (reported as
                          skipped; default 10485760)
    providers             OpenAI-compatible or other endpoints by name:
                          { "NAME": { "base_url": "...", "api": "openai-chat", "api_key_env": "VAR" } }
    mcp_servers           MCP servers by name, merged with the project's .mcp.json
                          ({"mcpServers": {...}}; config wins per name):
                          { "NAME": { "command": "...", "args": [...], "env": {...} } }   stdio
                          { "NAME": { "url": "https://...", "headers": {...} } }         HTTP
                          \${VAR} is expanded. Tools appear as mcp__<server>__<tool>; they ask
                          like bash unless the server marks them read-only. /mcp shows them.
                          A server that fails to start or dies is a warning; panto goes on.
    bash_env_passthrough  variables bash commands get although their names look secret
                          (by default names containing KEY, TOKEN, SECRET, PASSWORD, PASSWD,
                          CREDENTIAL, AUTH, PRIVATE or COOKIE, and provider keys, are withheld)
    timeouts              model-request deadlines in ms: { "first_byte_ms": 30000 (until the
                          response starts), "idle_ms": 120000 (without content; keepalives do not
                          count), "request_ms": 600000 (whole request) }; a timeout is retried once;
                          a refused connection to 127.0.0.0/8, ::1 or localhost is not retried
    max_parallel_tasks    task calls (child agents) of one reply that run at once (default 4)
    tool_deadline_ms      how long one call of read, write, edit, ls, glob, grep or an MCP tool
                          may run before it is abandoned with an error result, in ms (default
                          120000); bash keeps its own timeout (the model's, at most 600 s)
    allowed_mcp_servers   only these MCP servers start (names); set in the managed settings,
                          no other file can widen it (the managed "sandbox" mode is pinned too:
                          a looser --sandbox stops panto, exit 2)
    hooks                 commands run around prompts, tool calls and compactions (see Hooks)
    permissions           rules in Claude Code's syntax: { "allow": ["Bash(npm run test:*)",
                          "Edit(src/**)"], "ask": ["Bash(git push:*)"], "deny": ["Read(./.env)"] };
                          Bash(cmd), Bash(prefix:*), Read(glob), Edit(glob), WebFetch(domain:h),
                          mcp__server[__tool], Task(agent), Skill(name). Every file's rules add up;
                          any deny wins (in every mode, --allow-tools included), then ask (asked
                          even where the mode would not; refused in -p), then allow (no question;
                          the sandbox still confines); a command is judged by each part of
                          a && b, pipes, $(...); grep and glob leave out files a Read deny
                          covers. A bad rule stops panto naming permissions.allow[N]. "always"
                          in the terminal saves a rule to .panto/config.local.json or the user
                          config (or keeps it for the session; ACP's allow_always: the session)
    sandbox               how the model's tools are confined (see Sandbox): a mode
                          ("workspace-write", "read-only", "full") or { "mode": ..., "network":
                          false, "writable_roots": ["~/scratch"], "hidden_paths": ["~/.my-creds"],
                          "ask_commands": false (true: ask before sandboxed bash commands too),
                          "max_processes": 4096, "max_memory_mb": 8192 (per process; default
                          half the machine's memory) };
                          paths absolute, ~/..., or relative to the project root
    clearing              old tool outputs leave the context as one-line stubs (see Context
                          and cost): { "enabled": true, "trigger_tokens": half a known window, else
                          100000 (the provider-reported prompt size past which old outputs are
                          cleared), "keep_recent": 5 (most recent outputs never cleared),
                          "min_reclaim_tokens": 20000 (a clearing must reclaim this much, by
                          panto's estimate), "exclude_tools": ["..."] (never cleared),
                          "cache_ttl_seconds": 300 (no request for longer: the prompt cache is
                          cold, clear at once) }
    web_fetch             the web_fetch tool: { "allow_private": false } (true: it may reach
                          loopback, link-local and private network addresses, e.g. a docs
                          server on localhost; refused by default)
    models                what panto takes as known about a model, by "provider/model":
                          { "ollama/qwen3-coder": { "context_window": 65536 } }; the window is shown
                          (status line, /context, ACP usage_update) and halved is clearing's default
                          trigger, and used to decide compaction only by
                          compact_when_cold;
                          a window the server reports or an overflow taught wins over it;
                          { "images": true|false } says whether the model accepts images
    prices                what tokens cost, for /cost, in US dollars per million tokens:
                          { "anthropic/claude-sonnet-4-5": { "input_per_mtok": 3, "output_per_mtok": 15,
                            "cache_read_per_mtok": 0.3, "cache_write_per_mtok": 3.75,
                            "cache_write_1h_per_mtok": 6 } } (cache prices optional; the one-hour
                          cache holds what clearing settled); a model without a price, or that used
                          a kind of token without one, shows no cost, nothing is guessed
  Sessions are stored in $PANTO_HOME/sessions/<project>/, checkpoint content in
  $PANTO_HOME/checkpoints/<project>/; input history in $PANTO_HOME/history.

Compaction prompt (COMPACTION.md, the system prompt of a compaction; last one found wins):
  the base prompt shipped with panto, then $PANTO_HOME/COMPACTION.md, then
  <project>/.panto/COMPACTION.md

Environment:
  ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL   Anthropic (anthropic/...)
  OPENAI_API_KEY, OPENAI_BASE_URL         OpenAI (openai/...)
  GEMINI_API_KEY, GEMINI_BASE_URL         Google Gemini (google/... or gemini/...)
  OPENROUTER_API_KEY, GROQ_API_KEY, XAI_API_KEY, DEEPSEEK_API_KEY, MISTRAL_API_KEY,
  TOGETHER_API_KEY, FIREWORKS_API_KEY, CEREBRAS_API_KEY   OpenAI-compatible presets
  ollama/, lmstudio/, llamacpp/, vllm/    local servers, no key needed
  <NAME>_BASE_URL                         endpoint of any preset, e.g. OLLAMA_BASE_URL=http://host:11434
  PANTO_HOME                              where config, sessions and history live (default ~/.panto)
  PANTO_STREAM_IDLE_TIMEOUT_MS            default of timeouts.idle_ms
  PANTO_MANAGED_SETTINGS                  the managed settings file (default /etc/panto/managed.json)
  NO_COLOR                                turn colours and Markdown rendering off
  Keys (and secret-looking config header values) are never printed or written to session
  files: they show as [redacted NAME], also when a server echoes them in an error.

JSON events (--json; one object per line, always ending with "done"; their JSON Schema ships in
the package as panto/schema/events.json, and the program API, createPanto in the "panto" package,
yields the same events from sessions held in a Node process: README "Use panto from a program"):
  session_started {session_id, session_path, model, resumed, cwd, mode (the approval mode:
    plan, ask, accept-edits or allow-all), sandbox: {mode, network, writable_roots}}
    (sandbox mode "full": no sandbox)
  assistant_message {text, stop_reason, model, provider, usage: {prompt_tokens, output_tokens,
    cache_read_tokens?, cache_write_tokens?, reasoning_tokens?} | null}
  tool_call {id, name, arguments}    tool_result {tool_call_id, name, is_error, text}
  compaction_started {trigger: overflow|manual|cold_cache, model, tokens_before}   (once per model asked)
  compaction_attempt_failed {trigger, model, code, message}   (the fallback model is asked next)
  compaction {trigger, model, fallback, turns_summarised, turns_kept, tokens_summarised,
    tokens_kept, tokens_before, tokens_after, summary_tokens, size_sources, summary, duration_ms,
    restored: [{kind: path|command|error|task, text}], through_turn? (the block stands for turns 1 to
    it), ledger?: {files: [{path, changes: [{change: created|written|edited|deleted, turn}]}],
    commands: [{command, turn, exit_code, ending, error?}], more_files?, more_commands?},
    unverified: [{claim, evidence}], skills? (skills loaded in the summarised turns,
    named in the block), instructions?,
    chunks? (summary requests chained when the prefix was too large for one), chunking? (why:
    {reason: "rejected_whole", model, request_tokens?, context_window?, requests} the provider's
    numbers rejecting the whole transcript, or {reason: "cut_up_front", model, context_window,
    estimated_tokens, ratio, least_tokens, requests} its figures proving it could not fit),
    request_tokens?, context_window? (the provider's numbers from the overflow error, when stated),
    prepared? (true: the summary prepared ahead was applied, no summary request was sent)}
  compaction_prepared {model, turns_summarised, tokens_summarised, summary_tokens, duration_ms,
    cold_cache? (written because the prompt cache went cold: your next prompt applies it)}
    (config prepare_compaction_at or compact_when_cold, long-lived sessions only: the terminal, ACP,
    --input-format stream-json and the program API, whose onEvent hears it at once; a one-shot
    -p or --json run prepares nothing)
  context_warning {level, used, size}   (the next request passed level, a fraction of config
    context_warnings, of a known window of size tokens; once per level until it drops below)
  todo_updated {items: [{content, status: pending|in_progress|completed|cancelled, evidence?,
    flag?}], completed, total}   (a todo call replaced the task list, before its tool_result;
    flag: a completed item the session's record contradicts; total leaves cancelled items out)
  mode_changed {mode, previous}   (plan, ask, accept-edits or allow-all: /plan or, over ACP,
    the editor's mode menu changed it; --plan starts in plan mode without one)
  compaction_failed {trigger, code, message, attempts: [{model, code, message}], duration_ms}
  compaction_skipped {trigger, reason}
  compaction_preview {trigger, model, fallback_model?, turns_summarised, turns_kept,
    tokens_summarised, tokens_kept, tokens_before, size_sources, request_tokens,
    turns: [{position, action: summarise|keep, user_text, tokens, source: usage|estimate}],
    instructions?, nothing_to_summarise?}
  compaction_undone {compaction_id, trigger, tokens_before, tokens_after, earlier_compaction}
  pinned {number, text, pins}   unpinned {number, text, pins}
  summary_edited {compaction_id, summary_tokens, tokens_before, tokens_after}
  handoff {goal, model (null when the user wrote it), draft, parent: {id, path},
    session: {id, path} | null (null: only shown; started with --yes)}
  context_cleared {tool_results (how many), ids (their call ids), tokens_before, tokens_after,
    reason: trigger|cold_cache, clearing_id}   (old tool outputs replaced by one-line stubs)
  clearing_undone {tool_results, ids, tokens_before, tokens_after, clearing_id}   (/unclear)
  overflow_retry {}   retry {attempt, delay_ms, reason}   warning {message, code?}
    (code "prompt_truncated": by the server's own numbers, a prompt pinned at its context size
    or no larger than an earlier one although the conversation grew; it may have dropped part of
    the conversation: raise its context size, e.g. Ollama num_ctx)
  notice {message}   (informational, not a problem: e.g. the model a resumed session restored)
  hook {event, command, exit_code (null when killed), duration_ms, blocked, timed_out}
  task_started {tool_call_id, agent, session_id, session_path}   (a task call's child agent)
  task_event {tool_call_id, agent, event}   (one of the child's events, shaped as above)
  task_finished {tool_call_id, agent, session_id, ok}
  background_task_started {id, command, tool_call_id, log}   (bash with run_in_background)
  background_task_exited {id, command, tool_call_id, log, ending: exited|killed|sandbox-failed,
    exit_code? (exited), killed_by? (kill_task|user|session-end|signal), output_bytes, duration_ms}
  checkpoint {tool_call_id, tool, scope: file|workspace, files: [{path, change:
    created|modified|deleted}], uncovered: [{path, reason: ignored|too-large|nested-repository|
    special-file|content-unavailable|outside-workspace}], error? ("checkpoints unavailable: ...")}
  rewind {dry_run, session, turn, undo, scope: both|code|conversation, dropped_turns,
    restored_turns, files: [{path, outcome: restored|unchanged|conflict|overwritten|skipped|failed,
    change?: create|modify|delete, reason?}], blocked (why the files cannot be rewound, or null)}
    (from /rewind as the prompt, and from panto rewind --json)
  fork {session_id, path, parent_id, parent_path, turn}   (from --fork and /fork)
  error {code, message, hint?}   (code: a provider error code such as context_overflow or
    invalid_request, or usage/config/session/auth, sandbox (it cannot start), path (a folder or file
    panto cannot use),
    or max_turns when --max-turns stopped the run, or not_run for a stream-json input still
    queued when /exit or Ctrl-C ended the session); a command line panto refuses (a bad
    flag, exit 2) is an error {code: "usage"} then done, or the error alone for a
    subcommand's --json (panto rewind --json, panto sessions --json...)
  permission_request {id, tool, input, tool_call_id, escape_reason? (it asks to leave the
    sandbox), rule? (the permission rule that asks), suggested_rules? (what allow_always adds for
    the session; without them it allows the tool), origin? (a task child)}   (stream-json input
    only: waits for a permission_response naming id)
  control_response {response: {subtype: success|error, request_id, error?}}   (stream-json input)
  result {line (the stdin line of the input), exit_code, is_error, text?, session_id, usage}
    (stream-json input: after each input, its errors first; exit_code and text as done's for
    a one-shot run; usage as done's, the session's totals so far; the program API's turns end
    with it too, without line)
  done {exit_code, text?, usage?: {input_tokens, output_tokens, cache_read_tokens,
    cache_write_tokens, compaction: {the same four}, subagents?: {sessions, the same four}}}
    usage: the whole session's totals as /cost shows them (resumed history included, all models);
    the top level counts the agent's requests, compaction the summary requests alone, subagents
    the task tool's subagent sessions (present once one ran); input_tokens excludes cached tokens;
    absent when the run failed before a session was opened

Exit status:
  0    success
  1    a model, provider or runtime failure (an overflow that survived its one retry included)
  2    a usage or configuration error (bad flag, bad config, unknown provider, missing API key,
       session in use by another process, bubblewrap not installed, a path panto cannot
       use: PANTO_HOME, TMPDIR, --session or an export target, named with what is wrong)
  3    stopped by --max-turns N: N model requests made and the model still wanted tools
       (the work so far stays in the session; panto -r ID continues it)
  129  the terminal hung up (SIGHUP; an answer in progress is kept, as with Ctrl-C)
  130  interrupted (Ctrl-C, or Esc in the -r picker)

Examples:
  panto -m anthropic/claude-sonnet-4-5
  panto -p "explain src/index.ts" -m openai/gpt-5
  panto -c                                        continue this project's latest conversation
  panto -r 3f2a                                   resume the session whose id starts with 3f2a
  panto -c -p "/compact keep the bug list"        compact it from a script
  panto -c -p "/compact --preview"                what a compaction would summarise and keep
  panto -c -p "/uncompact"                        take the latest compaction back
  EDITOR=vim panto -c -p "/summary edit"          fix the summary by hand
  panto -c -p "/handoff ship the parser fix"      draft a handoff (add --yes to start the new session)
  panto --json --allow-tools -p "run the tests and fix what fails" > events.jsonl
  printf '%s\\n' '{"type":"user","message":{"role":"user","content":"hi"}}' |
    panto --input-format stream-json --json     one session, one JSON message per stdin line
  panto --sandbox read-only -p "review this change"   commands may not write the project
  panto sandbox                                   what the sandbox enforces on this machine
  panto --max-turns 10 --allow-tools -p "fix the lint errors"   at most 10 model requests
  panto rewind --to 3 --dry-run                   what taking turns 3 on back would change
  panto -c -p "/rewind --undo"                    take the latest rewind back
  panto --fork 3f2a@2 -p "try the other approach" a new session from turn 2 of another
  panto --session ./work.jsonl -m google/gemini-2.5-pro
  panto -m ollama/qwen2.5-coder:7b                a local model through Ollama (ollama serve)
`;
}
