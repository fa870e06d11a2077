/** The Gemini API's own endpoint, without its version (the adapter adds /v1beta unless the base URL names one). */
export const GEMINI_BASE_URL = "https://generativelanguage.googleapis.com";
