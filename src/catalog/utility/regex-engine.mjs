// What evaluate_regex computes, with the engine's own RegExp (JavaScript semantics): every match
// with its index, captures and named groups, and the text after replacement. It runs inside a
// worker (regex-worker.mjs) because a backtracking pattern can run for ages and only terminating
// the thread stops it. Types: regex-engine.d.mts.
//
// The replacement is built here, match by match, rather than by String.prototype.replace, so its
// size can be capped while it grows instead of after the engine has built a gigabyte string. It
// follows ECMA-262's RegExp.prototype[Symbol.replace] and GetSubstitution step by step, and the
// tests compare it with the engine's own replace on many patterns.

/** @typedef {import('./regex-engine.d.mts').RegexTask} RegexTask */
/** @typedef {import('./regex-engine.d.mts').RegexOutcome} RegexOutcome */
/** @typedef {import('./regex-engine.d.mts').RegexMatch} RegexMatch */

/**
 * @param {RegexTask} task
 * @returns {RegexOutcome}
 */
export function runRegex(task) {
  const { pattern, flags, text, replacement, limits } = task;
  /** @type {RegExp} */
  let regex;
  try {
    regex = new RegExp(pattern, flags);
  } catch (error) {
    return { ok: false, code: 'invalid_pattern', message: /** @type {Error} */ (error).message };
  }
  const fullUnicode = /[uv]/.test(regex.flags);

  /** @type {RegexMatch[]} */
  const matches = [];
  let listedChars = 0;
  let truncated = false;
  let matchCount = 0;

  /** @type {string[]} */
  const replacedParts = [];
  let replacedLength = 0;
  let nextSourcePosition = 0;

  regex.lastIndex = 0;
  for (;;) {
    /** @type {RegExpExecArray | null} */
    let result;
    try {
      result = regex.exec(text);
    } catch (error) {
      // V8 compiles lazily: "Regular expression too large" and the like surface on first use.
      return { ok: false, code: 'invalid_pattern', message: /** @type {Error} */ (error).message };
    }
    if (result === null) break;
    matchCount += 1;

    if (!truncated) {
      const listed = describeMatch(result);
      const size = listed.match.length + listed.captures.reduce((sum, c) => sum + (c?.length ?? 0), 0);
      if (matches.length >= limits.maxListedMatches || listedChars + size > limits.maxListedChars) truncated = true;
      else {
        matches.push(listed);
        listedChars += size;
      }
    }

    if (replacement !== undefined) {
      const matched = result[0];
      const position = Math.max(0, Math.min(result.index, text.length));
      if (position >= nextSourcePosition) {
        const piece = text.slice(nextSourcePosition, position);
        const room = limits.maxReplacedChars - replacedLength - piece.length;
        const substitution = room < 0 ? undefined : substitute(matched, text, position, result.slice(1), result.groups, replacement, room);
        if (substitution === undefined) return tooLarge(limits.maxReplacedChars);
        replacedParts.push(piece, substitution);
        replacedLength += piece.length + substitution.length;
        nextSourcePosition = position + matched.length;
      }
    }

    if (!regex.global) break;
    if (result[0] === '') regex.lastIndex = advanceStringIndex(text, regex.lastIndex, fullUnicode);
  }

  /** @type {RegexOutcome} */
  const outcome = { ok: true, matchCount, matches, truncated };
  if (replacement !== undefined) {
    const tail = nextSourcePosition < text.length ? text.slice(nextSourcePosition) : '';
    if (replacedLength + tail.length > limits.maxReplacedChars) return tooLarge(limits.maxReplacedChars);
    replacedParts.push(tail);
    outcome.replaced = replacedParts.join('');
  }
  return outcome;
}

/**
 * @param {number} maxReplacedChars
 * @returns {RegexOutcome}
 */
function tooLarge(maxReplacedChars) {
  return { ok: false, code: 'result_too_large', message: `the replaced text would be longer than ${maxReplacedChars} characters` };
}

/**
 * @param {RegExpExecArray} result
 * @returns {RegexMatch}
 */
function describeMatch(result) {
  /** @type {RegexMatch} */
  const listed = {
    index: result.index,
    end: result.index + result[0].length,
    match: result[0],
    captures: result.slice(1).map((capture) => capture ?? null),
  };
  if (result.groups) listed.groups = plainRecord(result.groups, (capture) => capture ?? null);
  if (result.indices) {
    listed.indices = Array.from(result.indices, (pair) => (pair ? [pair[0], pair[1]] : null));
    if (result.indices.groups) listed.groupIndices = plainRecord(result.indices.groups, (pair) => (pair ? [pair[0], pair[1]] : null));
  }
  return listed;
}

/**
 * Copies a null-prototype groups object into an ordinary one (same keys, same order).
 * @template T, U
 * @param {Record<string, T>} record
 * @param {(value: T) => U} map
 * @returns {Record<string, U>}
 */
function plainRecord(record, map) {
  /** @type {Record<string, U>} */
  const copy = {};
  for (const key of Object.keys(record)) copy[key] = map(/** @type {T} */ (record[key]));
  return copy;
}

/**
 * ECMA-262 AdvanceStringIndex: past an empty match, step one code unit, or a whole surrogate pair
 * when the pattern is in Unicode mode (u or v).
 * @param {string} text
 * @param {number} index
 * @param {boolean} fullUnicode
 */
function advanceStringIndex(text, index, fullUnicode) {
  if (!fullUnicode || index + 1 >= text.length) return index + 1;
  const code = text.charCodeAt(index);
  const next = text.charCodeAt(index + 1);
  const isPair = code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff;
  return index + (isPair ? 2 : 1);
}

/**
 * ECMA-262 GetSubstitution: expands $$, $&, $`, $', $n, $nn and $<name> in a replacement template.
 * Gives up (undefined) as soon as the expansion is longer than maxLength: one template of $` and $'
 * over a long text could otherwise reach gigabytes.
 * @param {string} matched
 * @param {string} text
 * @param {number} position
 * @param {(string | undefined)[]} captures
 * @param {Record<string, string | undefined> | undefined} namedCaptures
 * @param {string} template
 * @param {number} [maxLength]
 * @returns {string | undefined}
 */
export function substitute(matched, text, position, captures, namedCaptures, template, maxLength = Infinity) {
  if (!template.includes('$')) return template.length > maxLength ? undefined : template;
  let result = '';
  let i = 0;
  while (i < template.length) {
    if (result.length > maxLength) return undefined;
    const char = template[i];
    const next = template[i + 1];
    if (char !== '$' || next === undefined) {
      result += char;
      i += 1;
      continue;
    }
    if (next === '$') {
      result += '$';
      i += 2;
    } else if (next === '&') {
      result += matched;
      i += 2;
    } else if (next === '`') {
      result += text.slice(0, position);
      i += 2;
    } else if (next === "'") {
      result += text.slice(Math.min(position + matched.length, text.length));
      i += 2;
    } else if (next >= '0' && next <= '9') {
      const second = template[i + 2];
      let digitCount = second !== undefined && second >= '0' && second <= '9' ? 2 : 1;
      let index = Number(template.slice(i + 1, i + 1 + digitCount));
      if (index > captures.length && digitCount === 2) {
        digitCount = 1;
        index = Number(next);
      }
      const ref = template.slice(i, i + 1 + digitCount);
      result += index >= 1 && index <= captures.length ? (captures[index - 1] ?? '') : ref;
      i += ref.length;
    } else if (next === '<') {
      const close = template.indexOf('>', i);
      if (close === -1 || namedCaptures === undefined) {
        result += '$<';
        i += 2;
      } else {
        const capture = namedCaptures[template.slice(i + 2, close)];
        result += capture ?? '';
        i = close + 1;
      }
    } else {
      result += '$';
      i += 1;
    }
  }
  return result.length > maxLength ? undefined : result;
}
