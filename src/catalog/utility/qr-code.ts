import QRCode, { type QRCode as QrSymbol } from 'qrcode';
import { z } from 'zod';
import { defineTool, ToolError } from '../tool.ts';
import { isWellFormedText, WELL_FORMED_TEXT_MESSAGE } from './well-formed-text.ts';

const ERROR_CORRECTION_LEVEL = 'M';
const QUIET_ZONE_MODULES = 4;
const PNG_PIXELS_PER_MODULE = 4;
/** Byte-mode capacity of the largest QR code (version 40) at error correction level M. */
export const MAX_QR_TEXT_BYTES = 2331;
const MAX_QR_TEXT_CHARACTERS = 2_000;

const renderOptions = { errorCorrectionLevel: ERROR_CORRECTION_LEVEL, margin: QUIET_ZONE_MODULES } as const;

const utf8Length = (text: string) => Buffer.byteLength(text, 'utf8');

function createSymbol(text: string): QrSymbol {
  try {
    return QRCode.create(text, renderOptions);
  } catch (error) {
    // The schema keeps texts encodable and within capacity; this is the net under it.
    throw new ToolError(400, 'text_not_encodable', `text could not be encoded as a QR code: ${(error as Error).message}`, { bytes: utf8Length(text) });
  }
}

export const qrCodeTool = defineTool({
  name: 'generate_qr_code',
  title: 'Generate a QR code',
  description:
    'Encodes a text as a QR code (error correction level M, 4-module quiet zone) and returns it as SVG markup ' +
    'or as a PNG data URL (4 pixels per module), with the QR version and size chosen. ' +
    `The text is encoded as UTF-8 and may be up to ${MAX_QR_TEXT_CHARACTERS} characters and ${MAX_QR_TEXT_BYTES} UTF-8 bytes.`,
  price: '0.002',
  http: [{ method: 'GET', path: '/api/tools/qr' }],
  input: z.object({
    text: z
      .string()
      .min(1)
      .max(MAX_QR_TEXT_CHARACTERS)
      .refine(isWellFormedText, { message: WELL_FORMED_TEXT_MESSAGE })
      .refine((text) => utf8Length(text) <= MAX_QR_TEXT_BYTES, {
        message: `too long for a QR code: at most ${MAX_QR_TEXT_BYTES} bytes once encoded as UTF-8 (characters outside ASCII take 2 to 4 bytes)`,
      })
      .describe('The text to encode.'),
    format: z.enum(['svg', 'data_url']).default('svg').describe('svg (SVG markup) or data_url (a PNG image as a data: URL).'),
  }),
  example: { text: 'https://example.com/pay', format: 'svg' },
  annotations: { readOnlyHint: true, openWorldHint: false, idempotentHint: true },
  async handler(input) {
    const symbol = createSymbol(input.text);
    const symbolFacts = {
      format: input.format,
      text: input.text,
      version: symbol.version,
      errorCorrectionLevel: ERROR_CORRECTION_LEVEL,
      // Modules per side of the symbol itself, without the quiet zone.
      modules: symbol.modules.size,
      quietZoneModules: QUIET_ZONE_MODULES,
    };
    if (input.format === 'svg') {
      return { ...symbolFacts, mimeType: 'image/svg+xml', svg: (await QRCode.toString(input.text, { ...renderOptions, type: 'svg' })).trimEnd() };
    }
    const dataUrl = await QRCode.toDataURL(input.text, { ...renderOptions, type: 'image/png', scale: PNG_PIXELS_PER_MODULE });
    return { ...symbolFacts, mimeType: 'image/png', dataUrl };
  },
});
