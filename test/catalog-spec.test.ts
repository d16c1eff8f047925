// Walks the catalogue against the product spec's own tables: every HTTP endpoint (method, path,
// parameters, required, defaults, ranges, price), every MCP tool (name, inputs, defaults, ranges,
// price) and every enumeration. The spec is read from a copy kept in test/fixtures, itself checked
// against ../shared/spec when that is present, so a drift on either side fails here.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { optionalBeyondSpec, optionalDespiteSpec, parseParams, sharedSpecPath, spec, tableAfter } from './support/spec-tables.ts';
import type { SpecParam } from './support/spec-tables.ts';
import { test } from 'node:test';
import { z } from 'zod';
import { catalog } from '../src/catalog/index.ts';
import type { HttpRoute, Tool, ToolInput } from '../src/catalog/tool.ts';
import { usdcToAtomic } from '../src/payments/price.ts';

function field(input: ToolInput, name: string): z.ZodType {
  const found = (input.shape as Record<string, z.ZodType>)[name];
  assert.ok(found, `input has no field "${name}"; it has ${Object.keys(input.shape).join(', ')}`);
  return found;
}

function unwrapNumber(schema: z.ZodType): z.ZodNumber | undefined {
  let current: unknown = schema;
  while (current instanceof z.ZodDefault || current instanceof z.ZodOptional) current = current.unwrap();
  return current instanceof z.ZodNumber ? current : undefined;
}

function checkParam(where: string, toolName: string, input: ToolInput, mcpName: string, param: SpecParam): void {
  const schema = field(input, mcpName);
  const absent = schema.safeParse(undefined);
  // A knowing departure is still checked: the field is optional, and an input with neither it nor its alternative is refused.
  const departure = optionalDespiteSpec[`${toolName}.${mcpName}`];
  if (param.required && departure && departure.alternative in input.shape) {
    assert.equal(absent.success, true, `${where}: ${param.name} is optional (${departure.why})`);
    assert.equal(input.safeParse({}).success, false, `${where}: without ${param.name} and ${departure.alternative}, the input is refused`);
  } else if (param.required) assert.equal(absent.success, false, `${where}: ${param.name} must be required`);
  if (param.default !== undefined) {
    assert.ok(absent.success, `${where}: ${param.name} must have a default`);
    assert.equal(String(absent.data), param.default, `${where}: default of ${param.name}`);
  }
  if (param.range) {
    const number = unwrapNumber(schema);
    assert.ok(number, `${where}: ${param.name} must be a number`);
    assert.deepEqual([number.minValue, number.maxValue], param.range, `${where}: range of ${param.name}`);
  }
}

const byName = new Map(catalog.map((tool) => [tool.name, tool]));
const routes = catalog.flatMap((tool) => tool.http.map((route) => ({ tool, route })));
const mcpNameOf = (route: HttpRoute, httpName: string) =>
  Object.entries(route.rename ?? {}).find(([, h]) => h === httpName)?.[0] ?? httpName;

test('the spec copy in test/fixtures is the one in shared/', { skip: !existsSync(sharedSpecPath) && 'shared/ is not beside this clone' }, () => {
  assert.equal(readFileSync(sharedSpecPath, 'utf8'), spec);
});

test('every HTTP endpoint of the spec is in the catalogue, with its method, price and parameters', () => {
  const rows = tableAfter('### HTTP tool endpoints');
  assert.equal(rows.length, 29, '28 tools, the 22nd with two endpoints');
  assert.equal(routes.length, rows.length, 'and the catalogue has no endpoint the spec lacks');
  for (const [number, method, path, params, price] of rows) {
    const found = routes.find((r) => r.route.path === path);
    assert.ok(found, `#${number} ${method} ${path} is missing`);
    assert.equal(found.route.method, method, `${path}: method`);
    assert.equal(usdcToAtomic(found.tool.price), usdcToAtomic(price!), `${path}: price`);
    const input = found.route.input ?? found.tool.input;
    const parsed = parseParams(params!, true);
    for (const param of parsed) checkParam(`${method} ${path}`, found.tool.name, input, mcpNameOf(found.route, param.name), param);
  }
});

test('every MCP tool of the spec is in the catalogue, with its inputs, defaults, ranges and price', () => {
  const rows = tableAfter('### MCP tools');
  assert.equal(rows.length, 28);
  assert.deepEqual(new Set(catalog.map((t) => t.name)), new Set(rows.map((r) => r[0])));
  for (const [name, inputs, price] of rows) {
    const tool = byName.get(name!) as Tool;
    assert.equal(usdcToAtomic(tool.price), usdcToAtomic(price!), `${name}: price`);
    const parsed = parseParams(inputs!, false);
    const beyond = Object.keys(tool.input.shape).filter((input) => optionalBeyondSpec[`${name}.${input}`] !== undefined);
    for (const input of beyond) {
      const schema = tool.input.shape[input];
      assert.ok(schema instanceof z.ZodOptional || schema instanceof z.ZodDefault, `${name}.${input}: an input beyond the spec must be optional`);
    }
    assert.deepEqual(new Set(Object.keys(tool.input.shape)), new Set([...parsed.map((p) => p.name), ...beyond]), `${name}: input names`);
    for (const param of parsed) checkParam(name!, name!, tool.input, param.name, param);
  }
});

test('the spec\'s enumerations and defaults hold on the tools they name', () => {
  const where: Record<string, [string, string]> = {
    'format (qr)': ['generate_qr_code', 'format'],
    'type (math)': ['calculate_math', 'type'],
    'from (unit-convert)': ['convert_crypto_units', 'fromUnit'],
    'to (unit-convert)': ['convert_crypto_units', 'toUnit'],
    'network (MCP wallet tool)': ['get_wallet_portfolio', 'network'],
    'toFormat (MCP transform tool)': ['transform_data_format', 'toFormat'],
  };
  const rows = tableAfter('## Resources and their fields');
  assert.equal(rows.length, Object.keys(where).length);
  for (const [parameter, , allowed, defaultCell] of rows) {
    const target = where[parameter!];
    assert.ok(target, `unexpected row ${parameter}`);
    const schema = field(byName.get(target[0])!.input, target[1]);
    let inner: unknown = schema;
    while (inner instanceof z.ZodDefault || inner instanceof z.ZodOptional) inner = inner.unwrap();
    assert.ok(inner instanceof z.ZodEnum, `${parameter} is an enum`);
    assert.deepEqual(inner.options, allowed!.split(/,\s*/), `${parameter}: allowed values`);
    const absent = schema.safeParse(undefined);
    if (/^none/.test(defaultCell!)) assert.equal(absent.success, false, `${parameter} is required`);
    else assert.equal(absent.data, /^(\w+)/.exec(defaultCell!)?.[1], `${parameter}: default`);
  }
});

test('every price is a decimal USDC amount between 0.001 and 0.020, as the spec\'s limits say', () => {
  for (const tool of catalog) {
    const atomic = usdcToAtomic(tool.price);
    assert.ok(atomic >= 1000n && atomic <= 20000n, `${tool.name}: ${tool.price}`);
  }
});

test('every tool and route example is valid input', () => {
  for (const tool of catalog) {
    assert.ok(tool.input.safeParse(tool.example).success, `${tool.name}: example ${JSON.stringify(tool.example)}`);
    for (const route of tool.http) {
      if (route.input) assert.ok(route.input.safeParse(route.example ?? {}).success, `${route.path}: route example`);
    }
  }
});
