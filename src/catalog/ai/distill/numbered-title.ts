/**
 * A section's numbered title as a table of contents lists it ("1.2 The Format String", "Appendix A 2 Examples"):
 * up to eight words after the number, no closing punctuation. It is no sentence, and its number no version.
 */
export const NUMBERED_TITLE = /^(?:Appendix \w+ |Chapter )?\d+(?:\.\d+)*\.?\s+(?:\S+\s+){0,7}\S+$(?<![.!?:;,])/;
