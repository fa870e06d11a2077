/** A C0 or C1 control character other than line feed and tab, or DEL. */
export const CONTROL_CHARACTER = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
