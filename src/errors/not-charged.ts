// The closing sentence of a failure the caller reads over HTTP, and the way a reader that states the
// charge itself (the MCP text, the paying client) takes it off, so the fact is said once.
export const NOT_CHARGED = 'You were not charged.';

const chargeNote = /\s*(?:you were not charged|nothing was charged)\.?\s*$/i;

/** The message without its closing note that nothing was charged. */
export function withoutChargeNote(message: string): string {
  return message.replace(chargeNote, '');
}
