import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ToolError } from '../../tool.ts';
import { fixtureResponse, RecordingCaller } from '../../../upstream/providers/recording-caller.ts';
import { forecastAt } from './forecast-at.ts';

const signal = new AbortController().signal;
const JSON_TYPE = { contentType: 'application/json' };
const NEW_YORK = { latitude: 40.71427, longitude: -74.00597, timeZone: 'America/New_York' };

describe('forecastAt', () => {
  test('asks MET at 4 decimals and summarises on the place\'s clock, with MET\'s source note', async () => {
    const caller = new RecordingCaller(fixtureResponse('metno', 'compact-new-york.json', JSON_TYPE));
    const { forecast, source } = await forecastAt(caller, NEW_YORK, new Date('2020-07-20T11:44:31Z'), signal);
    assert.deepEqual(caller.only().request.query, { lat: '40.7143', lon: '-74.006' });
    assert.equal(forecast.timeZone, 'America/New_York');
    assert.equal(forecast.current.localTime, '2020-07-20T07:00:00-04:00');
    assert.equal(forecast.daily.length, 5);
    assert.equal(source.provider, 'metno');
    assert.match(source.attribution, /MET Norway.*CC BY 4\.0/);
  });

  test('a place MET cannot be asked about is refused before any request', async () => {
    const caller = new RecordingCaller(fixtureResponse('metno', 'compact-new-york.json', JSON_TYPE));
    for (const place of [{ ...NEW_YORK, latitude: 91 }, { ...NEW_YORK, longitude: Number.NaN }, { ...NEW_YORK, timeZone: 'Mars/Olympus_Mons' }]) {
      await assert.rejects(forecastAt(caller, place, new Date(), signal), (error: unknown) => error instanceof ToolError && error.status === 400 && /^location: /.test(error.message));
    }
    assert.equal(caller.calls.length, 0);
  });
});
