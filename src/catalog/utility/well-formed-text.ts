// JSON strings may carry a lone UTF-16 surrogate ("\ud800"), which has no UTF-8 encoding: encoders
// silently replace it with U+FFFD (so two different texts would hash alike) or throw (qrcode).
const unpairedSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const isWellFormedText = (text: string): boolean => !unpairedSurrogate.test(text);

export const WELL_FORMED_TEXT_MESSAGE = 'contains an unpaired UTF-16 surrogate (a broken character), which has no UTF-8 encoding';
