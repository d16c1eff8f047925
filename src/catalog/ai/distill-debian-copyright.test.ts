// Issue 24, round 6: a Debian machine-readable copyright file is read by stanza, not as one paragraph of fused field lines.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { distill } from './distill/distill-document.ts';
import { isDebianCopyright, readDebianCopyright } from './distill/read-debian-copyright.ts';

const COPYRIGHT = `Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: frobnicate
Source: https://example.org/frobnicate

Files: *
Copyright: 2001-2020 Jane Doe
 2021 John Roe
License: Expat

Files: debian/*
Copyright: 2022 Ann Packager
License: GPL-2+

License: Expat
 Permission is hereby granted, free of charge, to any person obtaining a copy of
 this software, to deal in the Software without restriction.
 .
 THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND.

License: GPL-2+
 This program is free software; you can redistribute it and/or modify it.
`;

test('a DEP-5 copyright file: its name as title, each files stanza one line (files, copyright, licence), each licence text a section', async () => {
  assert.ok(isDebianCopyright(COPYRIGHT));
  assert.ok(!isDebianCopyright('Format: plain text\nHello'));
  const document = readDebianCopyright(COPYRIGHT);
  assert.equal(document.title, 'frobnicate: Debian copyright');
  const headings = document.blocks.filter((block) => block.kind === 'heading').map((block) => block.text);
  assert.deepEqual(headings, ['frobnicate: Debian copyright', 'License: Expat', 'License: GPL-2+']);
  // Round 7: given once, so that an opening reaches the later stanzas' licences.
  assert.ok(document.blocks.some((block) => block.kind === 'item' && block.text === 'Files: *; Copyright: 2001-2020 Jane Doe 2021 John Roe; License: Expat'));
  assert.ok(document.blocks.some((block) => block.kind === 'paragraph' && block.text === 'THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND.'));
  assert.ok(!document.blocks.some((block) => block.text.startsWith('Source')), 'a bare address is no content');
  const answer = await distill(COPYRIGHT, undefined, {});
  assert.equal(answer.kind, 'licence');
  assert.ok(!answer.summary.includes('Format:'));
});
