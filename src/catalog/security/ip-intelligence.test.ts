// get_ip_intelligence against facts published independently of the databases it reads:
// - AS numbers and holders from the RIR registrations (ARIN, APNIC, RIPE NCC WHOIS) and the operators'
//   own documentation (Google Public DNS 8.8.8.8 / 2001:4860:4860::8888, Cloudflare 1.1.1.1 /
//   2606:4700:4700::1111 are AS15169 and AS13335);
// - AWS ranges and their regions from AWS's ip-ranges.json (54.247.0.0/16 eu-west-1, 52.4.0.0/14
//   us-east-1, 13.236.0.0/14 ap-southeast-2), Azure's from Microsoft's Azure Functions documentation
//   quoting the AzureCloud.westeurope service tag (13.69.0.0/17);
// - residential ISPs: Comcast 73.0.0.0/8 (ARIN, AS7922, US), Deutsche Telekom 84.128.0.0/10 and
//   2003::/19 (RIPE NCC, AS3320, DE);
// - special ranges from the IANA special-purpose registries, and the Teredo example of RFC 4380 /
//   Wikipedia (2001:0:4136:e378:8000:63bf:3fff:fdd2 carries the client 192.0.2.45).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { testContext } from '../../../test/support/tool-context.ts';
import { ToolError, type ToolContext } from '../tool.ts';
import { ipIntelligenceTool } from './ip-intelligence.ts';
import type { IpIntelligence } from './ip-intelligence/describe-caller.ts';

const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

function contextFor(ip: string, userAgent?: string, signal = new AbortController().signal): ToolContext {
  return testContext({ signal, now: () => new Date('2026-11-21T00:00:00Z'), caller: { ip, ...(userAgent !== undefined ? { userAgent } : {}) } });
}

async function describeCaller(ip: string, userAgent?: string): Promise<IpIntelligence> {
  assert.ok(ipIntelligenceTool.handler);
  return (await ipIntelligenceTool.handler(ipIntelligenceTool.input.parse({}), contextFor(ip, userAgent))) as IpIntelligence;
}

const nearestOf = (answer: IpIntelligence, provider: string) => answer.hosting?.nearestCloudRegions.find((r) => r.provider === provider);

/** Rough bounding boxes, enough to tell a country's coordinates from another continent's. */
const boxes = {
  US: { lat: [24, 50], lon: [-125, -66] },
  AU: { lat: [-44, -10], lon: [112, 154] },
  DE: { lat: [47, 55.1], lon: [5.8, 15.1] },
  IE: { lat: [51.4, 55.4], lon: [-10.7, -5.9] },
  NL: { lat: [50.7, 53.6], lon: [3.3, 7.3] },
} as const;

function assertIn(answer: IpIntelligence, code: keyof typeof boxes) {
  assert.equal(answer.country?.code, code);
  const { latitude, longitude } = answer.location ?? assert.fail('a location');
  const box = boxes[code];
  assert.ok(latitude >= box.lat[0] && latitude <= box.lat[1], `${answer.ip}: latitude ${latitude} is in ${code}`);
  assert.ok(longitude >= box.lon[0] && longitude <= box.lon[1], `${answer.ip}: longitude ${longitude} is in ${code}`);
}

describe('get_ip_intelligence: well-known public addresses', () => {
  test('8.8.8.8 is Google, AS15169, in the US, a hosting network', async () => {
    const answer = await describeCaller('8.8.8.8', BROWSER);
    assert.deepEqual([answer.ip, answer.version, answer.scope], ['8.8.8.8', 4, 'public']);
    assert.equal(answer.asn?.number, 15169);
    assert.match(answer.asn?.organization ?? '', /Google/);
    assertIn(answer, 'US');
    assert.equal(answer.country?.name, 'United States');
    assert.equal(answer.hosting?.isDatacenter, true);
    assert.equal(answer.hosting?.basis, 'known-hosting-asn');
    assert.equal(answer.hosting?.provider, 'Google');
    assert.equal(answer.note, null);
  });

  test('1.1.1.1 is Cloudflare, AS13335, registered in Australia (APNIC), a CDN network', async () => {
    const answer = await describeCaller('1.1.1.1', BROWSER);
    assert.equal(answer.asn?.number, 13335);
    assert.match(answer.asn?.organization ?? '', /Cloudflare/);
    assertIn(answer, 'AU');
    assert.deepEqual([answer.hosting?.isDatacenter, answer.hosting?.provider, answer.hosting?.kind], [true, 'Cloudflare', 'cdn']);
  });

  const publishedAwsRanges = [
    { ip: '54.247.0.1', region: 'eu-west-1', country: 'IE' },
    { ip: '52.4.0.1', region: 'us-east-1', country: 'US' },
    { ip: '13.236.0.1', region: 'ap-southeast-2', country: 'AU' },
  ] as const;
  for (const { ip, region, country } of publishedAwsRanges) {
    test(`${ip} (AWS ${region} in ip-ranges.json) is Amazon, a datacenter, nearest AWS region ${region}`, async () => {
      const answer = await describeCaller(ip);
      assert.equal(answer.asn?.number, 16509);
      assert.match(answer.asn?.organization ?? '', /Amazon/);
      assertIn(answer, country);
      assert.deepEqual([answer.hosting?.isDatacenter, answer.hosting?.provider, answer.hosting?.kind], [true, 'Amazon Web Services', 'cloud']);
      assert.equal(nearestOf(answer, 'aws')?.region, region);
      assert.ok((nearestOf(answer, 'aws')?.distanceKm ?? Infinity) < 100, 'the published region is near the geolocated point');
    });
  }

  test('13.69.0.1 (Azure AzureCloud.westeurope) is Microsoft, AS8075, in the Netherlands, nearest Azure region westeurope', async () => {
    const answer = await describeCaller('13.69.0.1');
    assert.equal(answer.asn?.number, 8075);
    assert.match(answer.asn?.organization ?? '', /Microsoft/);
    assertIn(answer, 'NL');
    assert.equal(answer.hosting?.provider, 'Microsoft (Azure)');
    assert.equal(nearestOf(answer, 'azure')?.region, 'westeurope');
  });

  test('73.0.0.1 is a Comcast (AS7922) residential address in the US: not a datacenter, low risk for a browser', async () => {
    const answer = await describeCaller('73.0.0.1', BROWSER);
    assert.equal(answer.asn?.number, 7922);
    assert.match(answer.asn?.organization ?? '', /Comcast/);
    assertIn(answer, 'US');
    assert.deepEqual([answer.hosting?.isDatacenter, answer.hosting?.basis, answer.hosting?.provider], [false, null, null]);
    assert.deepEqual(answer.botRisk, { score: 0, level: 'low', reasons: [] });
    assert.ok(answer.hosting?.nearestCloudRegion, 'a nearest region is still given');
  });

  test('84.128.0.1 is a Deutsche Telekom (AS3320) residential address in Germany', async () => {
    const answer = await describeCaller('84.128.0.1', BROWSER);
    assert.equal(answer.asn?.number, 3320);
    assertIn(answer, 'DE');
    assert.equal(answer.hosting?.isDatacenter, false);
  });

  test('IPv6: 2001:4860:4860::8888 is Google AS15169; 2606:4700:4700::1111 is Cloudflare AS13335', async () => {
    const google = await describeCaller('2001:4860:4860::8888');
    assert.deepEqual([google.version, google.scope, google.asn?.number, google.hosting?.provider], [6, 'public', 15169, 'Google']);
    const cloudflare = await describeCaller('2606:4700:4700::1111');
    assert.deepEqual([cloudflare.version, cloudflare.asn?.number, cloudflare.hosting?.provider], [6, 13335, 'Cloudflare']);
  });

  test('IPv6: 2a01:4f8::1 is Hetzner (AS24940) in Germany; 2003:e0::1 is Deutsche Telekom (AS3320), residential', async () => {
    const hetzner = await describeCaller('2a01:4f8::1');
    assert.equal(hetzner.asn?.number, 24940);
    assertIn(hetzner, 'DE');
    assert.deepEqual([hetzner.hosting?.isDatacenter, hetzner.hosting?.kind], [true, 'hosting']);
    const telekom = await describeCaller('2003:e0::1');
    assert.equal(telekom.asn?.number, 3320);
    assertIn(telekom, 'DE');
    assert.equal(telekom.hosting?.isDatacenter, false);
  });

  test('an IPv6 address is answered in its RFC 5952 form', async () => {
    const answer = await describeCaller('2001:4860:4860:0000:0000:0000:0000:8888');
    assert.equal(answer.ip, '2001:4860:4860::8888');
  });
});

describe('get_ip_intelligence: callers that are not on the public internet', () => {
  const cases = [
    { ip: '10.0.0.1', version: 4, scope: 'private', note: /private address/ },
    { ip: '192.168.1.1', version: 4, scope: 'private', note: /private address/ },
    { ip: '172.16.5.4', version: 4, scope: 'private', note: /private address/ },
    { ip: '127.0.0.1', version: 4, scope: 'loopback', note: /loopback/ },
    { ip: '::1', version: 6, scope: 'loopback', note: /loopback/ },
    { ip: 'fd12:3456:789a::1', version: 6, scope: 'private', note: /unique local/ },
    { ip: '169.254.10.20', version: 4, scope: 'link-local', note: /link-local/ },
    { ip: 'fe80::1%eth0', version: 6, scope: 'link-local', note: /link-local/ },
    { ip: '100.64.0.1', version: 4, scope: 'carrier-grade-nat', note: /RFC 6598/ },
    { ip: '192.0.2.1', version: 4, scope: 'reserved', note: /special-purpose/ },
    { ip: '2001:db8::1', version: 6, scope: 'reserved', note: /special-purpose/ },
    { ip: '0.0.0.0', version: 4, scope: 'unspecified', note: /unspecified/ },
    { ip: '224.0.0.1', version: 4, scope: 'multicast', note: /multicast/ },
  ] as const;
  for (const { ip, version, scope, note } of cases) {
    test(`${ip} is answered as ${scope}, with a note and no lookup`, async () => {
      const answer = await describeCaller(ip, 'curl/8.5.0');
      assert.deepEqual([answer.version, answer.scope], [version, scope]);
      assert.match(answer.note ?? '', note);
      assert.match(answer.note ?? '', /nothing was looked up/);
      assert.deepEqual(
        [answer.asn, answer.country, answer.region, answer.city, answer.location, answer.hosting],
        [null, null, null, null, null, null],
      );
      // Only the user agent counts: curl is an automation client (35 points), nothing for the network.
      assert.deepEqual(answer.botRisk.reasons.map((r) => r.code), ['automation-client']);
      assert.equal(answer.botRisk.score, 35);
    });
  }

  test('::ffff:127.0.0.1 (IPv4-mapped) is the IPv4 loopback address, and says how it arrived', async () => {
    const answer = await describeCaller('::ffff:127.0.0.1');
    assert.deepEqual([answer.ip, answer.version, answer.scope, answer.receivedAs], ['127.0.0.1', 4, 'loopback', '::ffff:127.0.0.1']);
  });

  test('::ffff:8.8.8.8 (IPv4-mapped public) is looked up as 8.8.8.8', async () => {
    const answer = await describeCaller('::ffff:8.8.8.8');
    assert.deepEqual([answer.ip, answer.version, answer.asn?.number], ['8.8.8.8', 4, 15169]);
  });

  test('the private-address note points at the trusted-proxy setting', async () => {
    assert.match((await describeCaller('10.0.0.1')).note ?? '', /TOOLGATE_TRUSTED_PROXIES/);
  });
});

describe('get_ip_intelligence: IPv6 transition addresses are looked up by the IPv4 address inside', () => {
  test('6to4 2002:808:808::1 carries 8.8.8.8', async () => {
    const answer = await describeCaller('2002:808:808::1');
    assert.deepEqual([answer.version, answer.transition, answer.embeddedIPv4, answer.asn?.number], [6, '6to4', '8.8.8.8', 15169]);
    assert.match(answer.note ?? '', /8\.8\.8\.8, was looked up/);
  });

  test('NAT64 64:ff9b::808:808 (RFC 6052 well-known prefix) carries 8.8.8.8', async () => {
    const answer = await describeCaller('64:ff9b::808:808');
    assert.deepEqual([answer.transition, answer.embeddedIPv4, answer.asn?.number], ['nat64', '8.8.8.8', 15169]);
  });

  test('the RFC 4380 Teredo example carries 192.0.2.45, a documentation address: reserved, no lookup', async () => {
    const answer = await describeCaller('2001:0:4136:e378:8000:63bf:3fff:fdd2');
    assert.deepEqual([answer.scope, answer.transition, answer.embeddedIPv4, answer.asn], ['reserved', 'teredo', '192.0.2.45', null]);
    assert.match(answer.note ?? '', /carries 192\.0\.2\.45 \(teredo\)/);
  });

  test('a 6to4 address around a private IPv4 one is private', async () => {
    const answer = await describeCaller('2002:a00:1::1');
    assert.deepEqual([answer.scope, answer.embeddedIPv4], ['private', '10.0.0.1']);
  });
});

describe('get_ip_intelligence: the answer', () => {
  test('credits every data source under CC BY 4.0 and names the installed data releases', async () => {
    for (const ip of ['8.8.8.8', '127.0.0.1']) {
      const answer = await describeCaller(ip);
      assert.ok(answer.attribution.length >= 4);
      assert.ok(answer.attribution.every((a) => a.license === 'CC BY 4.0' && a.licenseUrl === 'https://creativecommons.org/licenses/by/4.0/'));
      assert.ok(answer.attribution.some((a) => a.notice === 'IP Geolocation by DB-IP' && a.url === 'https://db-ip.com'));
      assert.ok(answer.attribution.some((a) => /routeviews/.test(a.url)));
      assert.match(answer.dataVersion.geolocation ?? '', /^@ip-location-db\/dbip-city-mmdb@2\.3\.\d{10}$/);
      assert.match(answer.dataVersion.asn ?? '', /^@ip-location-db\/asn@2\.3\.\d{10}$/);
    }
  });

  test('echoes the user agent, trimmed and cut at 512 characters; null when absent', async () => {
    assert.equal((await describeCaller('127.0.0.1', '  curl/8.5.0  ')).userAgent, 'curl/8.5.0');
    assert.equal((await describeCaller('127.0.0.1', 'x'.repeat(2000))).userAgent?.length, 512);
    assert.equal((await describeCaller('127.0.0.1')).userAgent, null);
  });

  test('scores a datacenter caller without a user agent high, with both reasons', async () => {
    const answer = await describeCaller('54.247.0.1');
    assert.deepEqual(answer.botRisk.reasons.map((r) => [r.code, r.points]), [['hosting-network', 45], ['missing-user-agent', 30]]);
    assert.deepEqual([answer.botRisk.score, answer.botRisk.level], [75, 'high']);
  });

  test('the nearest cloud regions are one per provider, nearest first, and the first is nearestCloudRegion', async () => {
    const { hosting } = await describeCaller('84.128.0.1');
    assert.deepEqual(new Set(hosting?.nearestCloudRegions.map((r) => r.provider)), new Set(['aws', 'gcp', 'azure']));
    const distances = hosting?.nearestCloudRegions.map((r) => r.distanceKm) ?? [];
    assert.deepEqual(distances, [...distances].sort((a, b) => a - b));
    assert.deepEqual(hosting?.nearestCloudRegion, hosting?.nearestCloudRegions[0]);
    // DB-IP places 84.128.0.1 in Frankfurt am Main, where all three providers have a region.
    assert.deepEqual(hosting?.nearestCloudRegions.map((r) => r.region), ['eu-central-1', 'europe-west3', 'germanywestcentral']);
  });

  test('is plain JSON', async () => {
    const answer = await describeCaller('2001:4860:4860::8888', BROWSER);
    assert.deepEqual(JSON.parse(JSON.stringify(answer)), answer);
  });
});

describe('get_ip_intelligence: failures and input', () => {
  test('an unreadable caller address is a 500 ToolError (never charged), not a crash', async () => {
    assert.ok(ipIntelligenceTool.handler);
    for (const ip of ['', 'unknown', '127.1', '1.2.3.4.5', '::ffff:999.0.0.1']) {
      await assert.rejects(ipIntelligenceTool.handler({}, contextFor(ip)), (error: unknown) => {
        assert.ok(error instanceof ToolError);
        assert.equal(error.status, 500);
        assert.equal(error.code, 'caller_address_unknown');
        return true;
      });
    }
  });

  test('a call whose signal is already aborted does not wait for the data', async () => {
    assert.ok(ipIntelligenceTool.handler);
    const controller = new AbortController();
    controller.abort(new Error('time budget spent'));
    await assert.rejects(ipIntelligenceTool.handler({}, contextFor('8.8.4.4', undefined, controller.signal)), /time budget spent/);
  });

  test('the empty input is the whole input', () => {
    assert.deepEqual(ipIntelligenceTool.input.parse({}), {});
    assert.deepEqual(ipIntelligenceTool.input.parse(ipIntelligenceTool.example), {});
  });

  test('any parameter is refused, naming it: the tool describes the caller and looks nothing else up', () => {
    const result = ipIntelligenceTool.input.safeParse({ ip: '8.8.8.8' });
    assert.equal(result.success, false);
    const issue = result.error?.issues[0];
    assert.equal(issue?.code, 'unrecognized_keys');
    assert.deepEqual(issue?.code === 'unrecognized_keys' ? issue.keys : [], ['ip']);
    assert.match(issue?.message ?? '', /takes no parameters.*cannot look up "ip"/);
    const two = ipIntelligenceTool.input.safeParse({ ip: '1.1.1.1', address: 'x' });
    assert.match(two.error?.issues[0]?.message ?? '', /"ip", "address"/);
  });

  test('input that is not an object is refused', () => {
    for (const bad of ['8.8.8.8', 42, null, []]) assert.equal(ipIntelligenceTool.input.safeParse(bad).success, false, JSON.stringify(bad));
  });
});
