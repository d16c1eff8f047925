import { createHash, randomUUID } from 'node:crypto';
import { nanoid } from 'nanoid';
import { z } from 'zod';
import { defineTool, type ToolContext } from '../tool.ts';
import { createUuidV7Generator } from './uuid-v7.ts';
import { isWellFormedText, WELL_FORMED_TEXT_MESSAGE } from './well-formed-text.ts';

const MAX_HASH_INPUT_LENGTH = 1_000_000;

const textToHash = () => z.string().max(MAX_HASH_INPUT_LENGTH).refine(isWellFormedText, { message: WELL_FORMED_TEXT_MESSAGE });

/** One generator for the whole process, so every UUIDv7 the gateway hands out sorts in issue order. */
const nextUuidV7 = createUuidV7Generator();

export interface GeneratedIds {
  uuidv7: string;
  /** The instant stamped into uuidv7, ISO 8601. */
  uuidv7Timestamp: string;
  uuidv4: string;
  /** 21 characters of the URL-safe alphabet A-Z a-z 0-9 _ -. */
  nanoid: string;
}

export interface Hashes {
  input: {
    /** Length in Unicode code points: "é", "東" and "🚀" count 1 each (JavaScript's .length would count "🚀" as 2). */
    length: number;
    /** Length of the UTF-8 encoding, which is what was hashed. */
    bytes: number;
  };
  algorithms: ['SHA-256', 'SHA-512'];
  encoding: 'hex';
  sha256: string;
  sha512: string;
}

export function generateIds(ctx: Pick<ToolContext, 'now'>): GeneratedIds {
  const v7 = nextUuidV7(ctx.now().getTime());
  return { uuidv7: v7.uuid, uuidv7Timestamp: new Date(v7.timestampMs).toISOString(), uuidv4: randomUUID(), nanoid: nanoid() };
}

export function hashText(text: string): Hashes {
  const utf8 = Buffer.from(text, 'utf8');
  return {
    input: { length: [...text].length, bytes: utf8.length },
    algorithms: ['SHA-256', 'SHA-512'],
    encoding: 'hex',
    sha256: createHash('sha256').update(utf8).digest('hex'),
    sha512: createHash('sha512').update(utf8).digest('hex'),
  };
}

const hashRouteInput = z.object({
  input: textToHash().describe('The string to hash (UTF-8).'),
});

export const hashesAndUuidsTool = defineTool({
  name: 'generate_hashes_and_uuids',
  title: 'Hashes and unique IDs',
  description:
    'Generates a UUIDv7 (RFC 9562, time-ordered, with its embedded timestamp), a UUIDv4 and a 21-character nanoid, ' +
    'and the SHA-256 and SHA-512 hashes (lowercase hex) of the UTF-8 bytes of an input string when one is given.',
  price: '0.001',
  http: [
    {
      method: 'GET', path: '/api/tools/uuid', input: z.object({}), summary: 'generated UUIDv7, UUIDv4, nanoid',
      async handler(_input, ctx) {
        return generateIds(ctx);
      },
    },
    {
      method: 'POST', path: '/api/tools/hash', summary: 'SHA-256 and SHA-512 hashes',
      input: hashRouteInput,
      example: { input: 'hello world' },
      async handler(input) {
        // Already validated by the face; parsing again types it without a cast (cheap: one string).
        return hashText(hashRouteInput.parse(input).input);
      },
    },
  ],
  input: z.object({ input: textToHash().optional().describe('A string to hash (UTF-8); hashes are returned when given.') }),
  example: { input: 'hello world' },
  annotations: { readOnlyHint: true, openWorldHint: false },
  async handler(input, ctx) {
    const ids = generateIds(ctx);
    return input.input === undefined ? ids : { ...ids, hash: hashText(input.input) };
  },
});
