/**
 * The vocabulary the classifier recognises, as concepts rather than memorised messages. All patterns
 * run on text normalised by `normaliseErrorText`: camelCase split into words, lowercase, and quotes,
 * backticks, underscores and hyphens already turned into spaces (so `max_tokens` and `maxTokens` both
 * read "max tokens").
 */

/** Any one of these means "the context window was exceeded". */
export const OVERFLOW_PATTERNS: readonly RegExp[] = [
  // "prompt is too long", "Input is too long for requested model", "conversation too long"
  /\b(?:prompt|input|inputs|messages?|conversation|context|request)(?: length)? (?:is |are )?too (?:long|large for (?:the )?model)/,
  // "Input prompt (2501 tokens) is too long and exceeds limit of 2048",
  // "The decoder prompt (length 66501) is longer than the maximum model length of 65536"
  /\b(?:prompt|input|inputs|messages?|conversation)\b[^.]{0,30}?\b(?:is|are) (?:longer|larger|greater) than\b/,
  /\b(?:prompt|input|inputs|messages?|conversation)\b[^.]{0,30}?\b(?:is|are) too long\b/,
  // "Prompt contains N tokens ... too large for model with N maximum context length"
  /\btoo large for (?:the |this )?model\b/,
  // "maximum context length is", "max context length", "maximum prompt length is", "maximum input length",
  // "the max input characters is 20000"; and the other word order, "model max length exceeded"
  /\bmax(?:imum)? (?:allowed |supported )?(?:prompt|input|context|sequence|model) (?:length|len|size|tokens|characters|chars)\b/,
  /\b(?:model|context|sequence)(?: s)? max(?:imum)? (?:length|len|size)\b/,
  // "the max length of the current question is 2000", "maximum length of the input"
  /\bmax(?:imum)? (?:length|size) of (?:the |your |current )*(?:question|prompt|input|messages?|conversation|context)\b(?! (?:image|images|file|files|media|audio|video)\b)/,
  // context length / window / size / limit named next to a violation, either order
  /\bcontext (?:length|window|size|limit)s?\b.{0,80}?\b(?:exceed|exceeded|exceeds|overflow|is only|of only|too small|not enough|full|exhausted)/,
  /\b(?:exceed|exceeded|exceeds|exceeding|longer than|greater than|larger than|more than|beyond|over|overflows?)\b.{0,60}?\bcontext (?:length|window|size|limit)/,
  // "context_length_exceeded", "model_context_window_exceeded", "exceed_context_size_error"
  /\bcontext (?:length|window|size) exceeded\b/,
  /\bexceed context (?:length|window|size)\b/,
  /\bcontext\b.{0,12}\boverflows?\b/,
  // "The input token count (N) exceeds", "prompt token count of N exceeds the limit"
  /\b(?:input|prompt|request|message) (?:token count|tokens?|length|size)\b.{0,40}?\b(?:exceed|exceeds|exceeded|too long|too many|greater than|over the)/,
  // "exceeds the maximum number of tokens", "exceeded model token limit", "too many input tokens"
  /\bexceed(?:s|ed)? (?:the |this |your )?(?:model(?: s)? )?(?:max(?:imum)? )?(?:number of |allowed )?(?:input |prompt )?tokens?\b/,
  /\bexceed(?:s|ed)? (?:the |this )?(?:model(?: s)? )?(?:max(?:imum)? )?(?:input |prompt |context )?token (?:limit|count|budget)\b/,
  /\btoo many (?:input|prompt|context) tokens\b/,
  // "context token limit exceeded" (a bare "token limit reached" may be a monthly allowance)
  /\b(?:input|prompt|context|model) token limit (?:exceeded|reached)\b/,
  // "prompt has 5000 tokens, but the configured context size is 4096 tokens"
  /\b(?:prompt|input|request|messages?) (?:has|contains|is) \d[\d,]* tokens\b.{0,60}?\b(?:but|however|exceed|exceeds|limit|max(?:imum)?|context)\b/,
  // "exceed max message tokens": a maximum counted in tokens that is not the output's
  /\bexceed(?:s|ed)? (?:the )?(?:model(?: s)? )?max(?:imum)? (?:(?!new |output |completion |response )\w+ ){0,2}tokens\b/,
  // A size cap counted in tokens is the window, not a byte limit: "Request body too large for gpt-4o
  // model. Max size: 8000 tokens."
  /\btoo (?:large|long)\b.{0,60}?\b(?:max(?:imum)?|limit)\b[^.\d]{0,20}\d[\d,]* tokens\b/,
  // "size limit exceeded by 11371 tokens"; "input token count is N but model only supports up to M"
  /\bexceed(?:s|ed)? by \d[\d,]* tokens?\b/,
  /\b(?:input|prompt) token count\b.{0,60}?\bonly supports\b/,
  /\bmodel max prompt tokens exceeded\b/,
  // "219898 tokens > 200000 maximum", "request (8708 tokens) exceeds", "(n_keep: 13055>= n_ctx: 4096)"
  /\b\d[\d,]* tokens?\)? ?(?:>|>=|exceeds?)\s*\d/,
  /\b\d[\d,]* tokens?\)? exceeds? (?:the )?(?:available |model |maximum |max )?(?:context|limit|maximum)/,
  /\bn (?:ctx|keep)\b.{0,20}(?:>|exceed|greater)|(?:>=?|exceeds?|greater than) ?n ctx\b|\bnum ctx\b/,
  // "Prompt exceeds max length", "Your input exceeds the context window"
  /\b(?:prompt|input|inputs|messages?) (?:exceeds|exceeded|is longer than|is larger than)\b(?! (?:the )?(?:max(?:imum)? )?(?:allowed )?(?:size|bytes|file size|payload))/,
  // "Range of input length should be [1, N]", "inputs must have less than N tokens",
  // "inputs tokens + max_new_tokens must be <= N", "input length and max_tokens exceed context limit"
  /\b(?:range of )?input (?:length|tokens?) (?:should|must) be\b/,
  /\binputs? (?:tokens? )?must (?:have|be) (?:less|fewer|smaller|at most|<)/,
  /\binputs? (?:tokens?|length)? ?(?:\+|and|plus) ?max(?:imum)? (?:new |output |completion )?tokens\b/,
  /\btokens in the (?:prompt|input|request)\b.{0,30}(?:exceed|cannot|must|limit)/,
  // "Please reduce the length of the messages", "provide a shorter input", "try using a shorter prompt"
  /\breduce the length of (?:the |your )?(?:messages?|prompt|input|conversation)/,
  /\bshorter (?:prompt|input|conversation|context)\b/,
  /\breduce (?:the |your )?(?:prompt|input|conversation|context)\b(?! (?:image|images|file|files|media|audio|video|size)\b)/,
  // Chinese: context / input / prompt "exceeds" or "too long"
  /(?:上下文|输入|提示词|prompt|input).{0,12}(?:超过|超出|过长|太长)/,
  /(?:超过|超出)了?(?:模型)?的?最大(?:上下文|长度|输入|token)/,
];

/**
 * A complaint about the requested OUTPUT limit (max_tokens and its synonyms) being too large. Such a
 * request fails the same way however short the conversation is, so compaction cannot help.
 */
export const OUTPUT_LIMIT_PATTERNS: readonly RegExp[] = [
  /\bmax(?:imum)? (?:new |output |completion )?tokens?\b[^.]{0,40}?(?:is too (?:large|big|high)|too large|exceeds?|must be (?:less|lower|smaller|at most|<)|should be|cannot exceed|>\s*\d|out of range|invalid|not valid|above (?:the )?max|非法|参数)/,
  /\bmaxoutputtokens\b[^.]{0,40}?(?:too large|exceeds?|must be|should be|>|invalid)/,
  /\bmaximum allowed number of output tokens\b/,
  /\boutput tokens?\b[^.]{0,30}(?:exceeds?|too large|must be less)/,
  // "Claude's response exceeded the 32000 output token maximum": the answer, not the prompt, ran long
  /\b(?:response|output|completion|answer)\b[^.]{0,20}\bexceed(?:s|ed)?\b[^.]{0,30}\boutput tokens?\b/,
];

/**
 * Overflow phrases specific enough to beat an output-limit complaint in the same body: input and
 * max_tokens summed against the window, or the prompt itself named as too long.
 */
export const INPUT_OVERFLOW_PATTERNS: readonly RegExp[] = [
  /\binputs? (?:tokens?|length)? ?(?:\+|and|plus) ?max(?:imum)? (?:new |output |completion )?tokens\b/,
  /\b\d[\d,]* ?\+ ?\d[\d,]* ?> ?\d/,
  /\b(?:prompt|input) (?:is )?too long\b/,
  /\b(?:input|prompt) token count\b.{0,40}exceed/,
];

/** Rate limits and throttles, including those that count tokens ("tokens per minute"). */
export const RATE_LIMIT_PATTERNS: readonly RegExp[] = [
  /\brate ?limit/,
  /\btokens? per (?:min|minute|hour|day|second|sec)\b/,
  /\b(?:tpm|rpm|tpd|rpd|itpm|otpm)\b/,
  /\bthrottl/,
  /\btoo many requests\b/,
  /\brequests? per (?:min|minute|hour|day|second)\b/,
  /\bresource (?:has been )?exhausted\b/,
  /\bquota\b/,
  /\b(?:please )?wait before trying again\b/,
  /\bslow down\b/,
];

/** Account balance or quota used up: waiting will not help, topping up will. */
export const BILLING_PATTERNS: readonly RegExp[] = [
  /\binsufficient (?:quota|balance|credits?|funds)\b/,
  /\bexceeded your current quota\b/,
  /\b(?:more|out of|no) credits\b/,
  /\bcredit balance\b/,
  /\bpayment required\b/,
  /\bbilling (?:details|hard limit|not active)/,
];

/**
 * Limits on spending, not on the request: a budget, a credit or usage allowance, a plan's or a key's
 * cap over a period. However they are worded (token counts and "limit exceeded" included: "prompt
 * tokens limit exceeded: N > M, raise the monthly limit in the key's settings"), compaction cannot
 * help, so they are never context overflows. What marks them is who or when the limit belongs to (a
 * key, a user, a team, a plan, a month, a budget) or where it is raised (settings, billing), never
 * the request itself.
 */
export const SPENDING_LIMIT_PATTERNS: readonly RegExp[] = [
  // "Budget has been exceeded!", "exceeded budget for model=...", "End User=x over budget"
  /\bbudget\b.{0,30}?\b(?:exceeded|reached|exhausted|used up|depleted)\b/,
  /\b(?:exceeded|exceeds|over|reached|exhausted)\b.{0,20}?\bbudget\b/,
  // "Key limit exceeded (monthly limit)", "spend limit reached", "usage cap hit", "plan limit"
  /\b(?:key|keys|spend|spending|usage|plan|account|billing|credit|credits|subscription|organi[sz]ation|team|user)(?: (?:prompt|input|output|completion|total|token|tokens|request|requests|usage|spend|cost))?(?: (?:token|tokens|request|requests))? (?:limit|cap|allowance|quota)s?\b/,
  // "monthly limit", "daily token limit", "weekly quota", "tokens per month"
  /\b(?:monthly|daily|weekly|yearly|annual|lifetime)(?: (?:prompt|input|output|completion|total|token|tokens|request|requests|usage|spend|spending))?(?: (?:token|tokens|request|requests))? (?:limit|cap|allowance|quota|budget)s?\b/,
  /\btokens? (?:per|a|each) (?:month|week|year)\b/,
  // "raise the limit in this API key's settings", "manage it using .../settings/keys"
  /\b(?:raise|increase|adjust|manage)\b.{0,40}?\blimit\b.{0,60}?\b(?:settings|dashboard|console|billing)\b/,
  /\bsettings (?:keys|billing|limits)\b/,
  /\bcan only afford\b/,
];

/** Hints that a quota is a window that refills (Gemini's per-minute free-tier quota). */
export const QUOTA_REFILLS_PATTERNS: readonly RegExp[] = [
  /\bretry in \d/,
  /\bper ?(?:minute|min|second|hour)\b/,
  /\bperminute|persecond\b/,
  /\btry again in \d/,
];

export const OVERLOADED_PATTERNS: readonly RegExp[] = [
  /\boverloaded\b/,
  /\bover capacity\b/,
  /\b(?:at|no) capacity\b/,
  // "Service tier capacity exceeded for this model", "MODEL_CAPACITY_EXHAUSTED": the provider's capacity, not the caller's
  /\bcapacity (?:exceeded|exhausted)\b/,
  /\bloading model\b/,
  // "Model meta-llama/Llama-2-13b-chat is currently loading", "Model is not ready to serve inference requests"
  /\bmodel\b.{0,80}?\b(?:is|are) (?:currently |still )?(?:loading|warming up)\b/,
  /\bmodel (?:is )?not ready\b/,
  /\btemporarily unavailable\b/,
  /\b(?:experiencing )?high demand\b/,
  /\bservice unavailable\b|\bunavailable error\b/,
];

/**
 * Exception types that name a transient failure of the service itself. A wrapper sometimes reports
 * them under a 4xx (LiteLLM turns Bedrock's stream exception into "status_code: 400"); the type wins.
 */
export const UNAVAILABLE_EXCEPTION_PATTERNS: readonly RegExp[] = [
  /\bservice ?unavailable ?exception\b/,
  /\bmodel ?not ?ready ?exception\b/,
];

export const AUTH_PATTERNS: readonly RegExp[] = [
  /\b(?:invalid|incorrect|missing|expired|revoked|wrong|bad) (?:x )?api ?key\b/,
  /\bapi ?key (?:not valid|is invalid|is missing|expired|not found|required)\b/,
  /\bauthentication\b/,
  /\bunauthori[sz]ed\b|\bunauthenticated\b/,
  /\bpermission (?:denied|error)\b|\bpermission denied\b/,
  /\bforbidden\b/,
  /\baccess denied\b/,
  /\binvalid (?:bearer |access |auth )?token\b/,
];

/** HTTP payload too big (bytes, images, files): a proxy or API size cap, not the context window. */
export const PAYLOAD_SIZE_PATTERNS: readonly RegExp[] = [
  /\brequest entity too large\b/,
  /\b(?:payload|body|request|file|image|media|upload) (?:is )?too large\b/,
  /\bexceeds? the maximum (?:request |payload |body |file )?size\b/,
  /\b(?:payload|body|request|file|image|media) (?:size )?exceed(?:s|ed)?\b.{0,30}\b(?:size|bytes|mb|kb|gb|limit)\b/,
  /\bmax(?:imum)? bytes\b/,
  /\bsize limit\b/,
  /\b\d[\d,]* bytes\b/,
  /\bimage dimensions?\b/,
];

export const CONTENT_FILTER_PATTERNS: readonly RegExp[] = [
  /\bcontent (?:filter|filtering|management policy|policy)\b/,
  /\bresponsible ai\b/,
  /\bsafety (?:system|settings|filter|policy|reasons?)\b/,
  /\bflagged\b/,
  /\bmoderation\b/,
];

/** Connection-level failures reported without an HTTP status. */
export const NETWORK_PATTERNS: readonly RegExp[] = [
  /\btimed? ?out\b|\btimeout\b/,
  /\beconn(?:reset|refused|aborted)\b|\benotfound\b|\betimedout\b|\bepipe\b/,
  /\bsocket hang up\b/,
  /\bconnection (?:reset|closed|refused|error|lost|terminated)\b/,
  /\bstream (?:disconnected|closed|ended|terminated)\b/,
  /\bnetwork error\b|\bfetch failed\b|\bpremature close\b/,
  /\bupstream connect error\b|\breset before headers\b|\bother side closed\b/,
];

/** Provider-side failures reported without a status (stream error events, SDK messages). */
export const SERVER_PATTERNS: readonly RegExp[] = [
  /\binternal (?:server )?error\b/,
  /\bserver error\b/,
  /\bapi error\b/,
  /\bbad gateway\b|\bgateway timeout\b/,
  /\bstatus : internal\b/,
  /\bsomething went wrong\b|\ban (?:unexpected )?error occurred while processing\b/,
  /\b(?:had|encountered|experienced) an? (?:unexpected |internal )?error\b/,
];

/** Request problems reported without a status. */
export const INVALID_REQUEST_PATTERNS: readonly RegExp[] = [
  /\binvalid (?:request|argument|parameter|params|model|value)/,
  /\bbad request\b/,
  /\bvalidation (?:error|exception)\b|\bmalformed\b/,
  /\b(?:model|deployment)\b.{0,60}\b(?:not found|does not exist|not exist|is not supported|unknown)\b/,
  /\bnot found\b/,
  /\bunsupported\b/,
  /非法|参数/,
];

export function matchesAny(patterns: readonly RegExp[], text: string): boolean {
  return patterns.some((pattern) => pattern.test(text));
}
