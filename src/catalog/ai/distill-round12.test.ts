// Issue 24, round 12: failure classes read in fresh set 10's losses and in the tuned sets.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readTroff } from './distill/read-troff.ts';

test("a string a conditional defines is read: DocBook's apostrophe, `.ie \\n(.g .ds Aq \\(aq`", () => {
  const page = [
    '.TH "SYSTEMD\\-MEASURE" "1" "" "systemd 252" "systemd-measure"',
    '.ie \\n(.g .ds Aq \\(aq',
    ".el       .ds Aq '",
    '.SH "DESCRIPTION"',
    '.PP',
    'This queries the local system\\*(Aqs TPM2 PCR 11+12+13 values\\&.',
  ].join('\n');
  const text = readTroff(page).blocks.map((block) => block.text).join('\n');
  assert.match(text, /the local system's TPM2 PCR 11\+12\+13 values/);
});

test("the first branch of a conditional string wins; an unconditional .ds still redefines it", () => {
  const page = ['.TH "X" "1"', '.ie n .ds Q ""', '.el .ds Q \\(lq', '.SH NAME', 'say \\*Qhi\\*Q', '.ds Q *', 'and \\*Qthen\\*Q'].join('\n');
  const text = readTroff(page).blocks.map((block) => block.text).join('\n');
  assert.match(text, /say "hi"/);
  assert.match(text, /and \*then\*/);
});
