import assert from 'node:assert/strict';
import { test } from 'node:test';
import { reverseGeocodeTool } from '../../catalog/knowledge/reverse-geocode.ts';
import { searchTool } from '../../catalog/web/search.ts';
import { httpFieldName, httpInput } from './http-input.ts';

const searchRoute = searchTool.http[0]!;
const geoRoute = reverseGeocodeTool.http[0]!;

test('HTTP names become MCP names and numeric query values become numbers', () => {
  assert.deepEqual(httpInput(searchRoute, searchTool.input, { q: 'x402', limit: '7' }, true), { query: 'x402', limit: 7 });
  assert.deepEqual(httpInput(geoRoute, reverseGeocodeTool.input, { lat: '-33.86', lon: '151.2' }, true), { latitude: -33.86, longitude: 151.2 });
});

test('the MCP name is not an alias on HTTP, and loose numbers stay strings for the schema to refuse', () => {
  assert.deepEqual(httpInput(searchRoute, searchTool.input, { query: 'x', limit: '5 apples' }, true), { limit: '5 apples' });
  assert.deepEqual(httpInput(geoRoute, reverseGeocodeTool.input, { lat: '', lon: '0x10' }, true), { latitude: '', longitude: '0x10' });
});

test('bodies keep their JSON types', () => {
  assert.deepEqual(httpInput(searchRoute, searchTool.input, { q: 'x', limit: '5' }, false), { query: 'x', limit: '5' });
});

test('issue fields are reported under the HTTP name', () => {
  assert.equal(httpFieldName(searchRoute, 'query'), 'q');
  assert.equal(httpFieldName(geoRoute, 'latitude'), 'lat');
  assert.equal(httpFieldName(searchRoute, 'limit'), 'limit');
});
