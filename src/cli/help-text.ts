import { formatSlashCommandList } from "./slash-command-table.js";

/** Everything `panto --help` shows after the generated list of options. */
export function helpAppendix(): string {
  return `
Modes:
  panto                         interactive session in the terminal
  panto -p "PROMPT"             one prompt; only the final answer goes to stdout
  echo "PROMPT" | panto -p      the prompt comes from stdin when -p has no value
  panto --json -p "PROMPT"      one JSON event per line on stdout (implies print mode)
  panto demo                    offline simulation of an overflow, a compaction and a retry
  panto export [SESSION] [-o FILE] [--format html|md|json] [--full]
                                a session (id prefix or path; default: this project's latest) as
                                one offline HTML page with its compaction timeline, in
                                <session name>.html here (-o - for stdout; md/json also by -o
                                extension); tool results cut to 4,000 characters unless --full

Slash commands (interactive, and also as the -p prompt, e.g. panto -c -p "/compact"):
${formatSlashCommandList()}

Tools:
  read, ls, glob and grep always run. write, edit and bash change things: the interactive
  mode asks first (y = once, a = always for this session, n = no); print and JSON modes
  deny them unless --allow-tools is given (the model is told the user did not allow it).

Configuration (JSON; the project file wins per key):
  $PANTO_HOME/config.json       user settings (PANTO_HOME defaults to ~/.panto)
  <project>/.panto/config.json  project settings; <project> is the nearest ancestor of the
                                working directory holding .panto/ or .git/
  Keys:
    model                 "provider/model" used when --model is not given
    compaction_model      model that writes compaction summaries (falls back to the active model)
    keep_verbatim_tokens  recent turns kept verbatim by a compaction, in tokens (default 20000)
    max_output_tokens     cap on each answer's length
    providers             OpenAI-compatible or other endpoints by name:
                          { "NAME": { "base_url": "...", "api": "openai-chat", "api_key_env": "VAR" } }
  Sessions are stored in $PANTO_HOME/sessions/<project>/; input history in $PANTO_HOME/history.

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
  NO_COLOR                                turn colours off
  Keys are never printed or written to session files.

JSON events (--json; one object per line, always ending with "done"):
  session_started {session_id, session_path, model, resumed, cwd}
  assistant_message {text, stop_reason, model, provider, usage: {prompt_tokens, output_tokens,
    cache_read_tokens?, cache_write_tokens?, reasoning_tokens?} | null}
  tool_call {id, name, arguments}    tool_result {tool_call_id, name, is_error, text}
  compaction_started {trigger, model}
  compaction {trigger, model, fallback, turns_summarised, turns_kept, tokens_summarised,
    tokens_kept, tokens_before, tokens_after, summary_tokens, size_sources, summary, instructions?,
    chunks? (summary requests chained when the prefix was too large for one)}
  compaction_failed {trigger, code, message, attempts}   compaction_skipped {trigger, reason}
  overflow_retry {}   retry {attempt, delay_ms, reason}   warning {message}
  error {code, message, hint?}   (code: a provider error code, or usage/config/session/auth)
  done {exit_code, text?}

Exit status:
  0    success
  1    a model, provider or runtime failure (an overflow that survived its one retry included)
  2    a usage or configuration error (bad flag, bad config, unknown provider, missing API key,
       session in use by another process)
  130  interrupted (Ctrl-C)

Examples:
  panto -m anthropic/claude-sonnet-4-5
  panto -p "explain src/index.ts" -m openai/gpt-5
  panto -c                                        continue this project's latest session
  panto -c -p "/compact keep the bug list"        compact it from a script
  panto --json --allow-tools -p "run the tests and fix what fails" > events.jsonl
  panto --session ./work.jsonl -m google/gemini-2.5-pro
  panto -m ollama/qwen2.5-coder:7b                a local model through Ollama (ollama serve)
`;
}
