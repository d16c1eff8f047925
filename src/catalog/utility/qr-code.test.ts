import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import jsqrModule from 'jsqr';
import { PNG } from 'pngjs';
import { testContext } from '../../../test/support/tool-context.ts';
import type { ToolContext } from '../tool.ts';
import { qrCodeTool } from './qr-code.ts';
import { schemaIssues } from '../../../test/support/schema-issues.ts';

// jsqr is a CommonJS bundle: from ESM its default import is module.exports, whose .default is the decoder.
const jsQR = jsqrModule.default;

const ctx: ToolContext = testContext({ signal: new AbortController().signal, now: () => new Date(), caller: { ip: '127.0.0.1' } });

interface QrAnswer {
  format: 'svg' | 'data_url';
  text: string;
  version: number;
  errorCorrectionLevel: string;
  modules: number;
  quietZoneModules: number;
  mimeType: string;
  svg?: string;
  dataUrl?: string;
}

async function generate(raw: unknown): Promise<QrAnswer> {
  assert.ok(qrCodeTool.handler);
  return (await qrCodeTool.handler(qrCodeTool.input.parse(raw), ctx)) as QrAnswer;
}

interface Raster {
  rgba: Uint8ClampedArray;
  width: number;
  height: number;
}

/**
 * Draws the SVG that `qrcode` writes: a white background path, then one stroked path of unit-wide
 * horizontal runs ("M x y.5 h n m dx dy h n ..."). Each module becomes `scale` pixels, and the image
 * gets `extraQuietZone` more white modules all round.
 */
function rasteriseQrSvg(svg: string, scale = 8, extraQuietZone = 4): Raster {
  const viewBox = /viewBox="0 0 (\d+) (\d+)"/.exec(svg);
  assert.ok(viewBox, 'the SVG has a viewBox');
  const size = Number(viewBox[1]);
  assert.equal(Number(viewBox[2]), size, 'the SVG is square');
  assert.match(svg, /<path fill="#ffffff" d="M0 0h\d+v\d+H0z"\/>/, 'the background is white');
  const path = /<path stroke="#000000" d="([^"]+)"/.exec(svg);
  assert.ok(path, 'the SVG has a stroked path of dark modules');

  const side = size + 2 * extraQuietZone;
  const dark = Array.from({ length: side }, () => new Array<boolean>(side).fill(false));
  let x = 0;
  let y = 0;
  for (const [, command, args] of path[1]!.matchAll(/([MmHh])([^MmHh]*)/g)) {
    const numbers = args!.trim().split(/[\s,]+/).filter(Boolean).map(Number);
    switch (command) {
      case 'M': [x, y] = [numbers[0]!, numbers[1]!]; break;
      case 'm': [x, y] = [x + numbers[0]!, y + numbers[1]!]; break;
      case 'H':
      case 'h': {
        const end = command === 'h' ? x + numbers[0]! : numbers[0]!;
        // A 1-wide stroke along y = row + 0.5 covers exactly the modules of that row.
        const row = Math.floor(y);
        for (let column = x; column < end; column += 1) dark[row + extraQuietZone]![column + extraQuietZone] = true;
        x = end;
        break;
      }
    }
  }

  const width = side * scale;
  const rgba = new Uint8ClampedArray(width * width * 4);
  for (let py = 0; py < width; py += 1) {
    for (let px = 0; px < width; px += 1) {
      const value = dark[Math.floor(py / scale)]![Math.floor(px / scale)] ? 0 : 255;
      rgba.set([value, value, value, 255], (py * width + px) * 4);
    }
  }
  return { rgba, width, height: width };
}

function readPngDataUrl(dataUrl: string): Raster {
  const prefix = 'data:image/png;base64,';
  assert.ok(dataUrl.startsWith(prefix), 'a PNG data URL');
  const png = PNG.sync.read(Buffer.from(dataUrl.slice(prefix.length), 'base64'));
  return { rgba: new Uint8ClampedArray(png.data), width: png.width, height: png.height };
}

/** Decodes with jsQR and returns the text two ways: jsQR's own, and its raw bytes read as UTF-8. */
function decode(raster: Raster) {
  const found = jsQR(raster.rgba, raster.width, raster.height, { inversionAttempts: 'dontInvert' });
  assert.ok(found, 'jsQR finds a QR code in the image');
  return { text: found.data, utf8: Buffer.from(found.binaryData).toString('utf8'), version: found.version };
}

const texts = {
  ascii: 'hello',
  unicode: 'héllo wörld ✓ 東京',
  url: 'https://example.com/pay?amount=0.002&asset=USDC#frag',
  nearCapacityCjk: '東'.repeat(777), // 2331 UTF-8 bytes: the byte-mode capacity of version 40-M
  nearCapacityAscii: 'the quick brown fox; '.repeat(100).slice(0, 2000), // the 2000-character limit
};

describe('generate_qr_code decodes back to its text', () => {
  for (const [name, text] of Object.entries(texts)) {
    for (const format of ['svg', 'data_url'] as const) {
      test(`${name} as ${format}`, async () => {
        const answer = await generate({ text, format });
        assert.equal(answer.format, format);
        assert.equal(answer.text, text);
        assert.equal(answer.errorCorrectionLevel, 'M');
        assert.equal(answer.quietZoneModules, 4);
        assert.equal(answer.modules, 17 + 4 * answer.version, 'a version-v symbol has 17 + 4v modules per side');

        let raster: Raster;
        if (format === 'svg') {
          assert.equal(answer.mimeType, 'image/svg+xml');
          assert.equal(answer.dataUrl, undefined);
          const svg = answer.svg ?? '';
          assert.ok(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"'));
          assert.match(svg, new RegExp(`viewBox="0 0 ${answer.modules + 8} ${answer.modules + 8}"`));
          raster = rasteriseQrSvg(svg);
        } else {
          assert.equal(answer.mimeType, 'image/png');
          assert.equal(answer.svg, undefined);
          raster = readPngDataUrl(answer.dataUrl ?? '');
          assert.equal(raster.width, (answer.modules + 8) * 4, '4 pixels per module, quiet zone included');
        }
        const decoded = decode(raster);
        assert.equal(decoded.text, text);
        assert.equal(decoded.utf8, text);
        assert.equal(decoded.version, answer.version);
      });
    }
  }

  test('format defaults to svg', async () => {
    const answer = await generate({ text: 'default' });
    assert.equal(answer.format, 'svg');
    assert.equal(decode(rasteriseQrSvg(answer.svg ?? '')).text, 'default');
  });

  test('the near-capacity texts need the largest symbol, version 40', async () => {
    assert.equal((await generate({ text: texts.nearCapacityCjk })).version, 40);
    assert.equal((await generate({ text: 'hello' })).version, 1);
  });
});

describe('generate_qr_code input', () => {
  const { issuesOf } = schemaIssues(qrCodeTool.input);

  test('a text over 2331 UTF-8 bytes is refused in the schema, naming text and the limit', () => {
    assert.ok(qrCodeTool.input.safeParse({ text: '東'.repeat(777) }).success);
    const issues = issuesOf({ text: `${'東'.repeat(777)}a` });
    assert.equal(issues.length, 1);
    assert.deepEqual(issues[0]?.path, ['text']);
    assert.match(issues[0]?.message ?? '', /at most 2331 bytes once encoded as UTF-8/);
  });

  test('a text over 2000 characters is refused naming text', () => {
    assert.deepEqual(issuesOf({ text: 'a'.repeat(2001) })[0]?.path, ['text']);
  });

  test('text is required and not empty; format is svg or data_url', () => {
    assert.deepEqual(issuesOf({})[0]?.path, ['text']);
    assert.deepEqual(issuesOf({ text: '' })[0]?.path, ['text']);
    assert.deepEqual(issuesOf({ text: 'x', format: 'png' })[0]?.path, ['format']);
  });

  test('a lone UTF-16 surrogate is refused naming text (it has no UTF-8 encoding)', () => {
    const issues = issuesOf({ text: 'abc\ud800' });
    assert.deepEqual(issues[0]?.path, ['text']);
    assert.match(issues[0]?.message ?? '', /unpaired UTF-16 surrogate/);
  });
});
