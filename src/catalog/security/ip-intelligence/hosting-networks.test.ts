// The curated hosting ASNs against the shipped ASN data, read here with a separate naive parser:
// every number must be announced there under its operator's name, so a typo or a reassigned
// number fails this test.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { ASN_PACKAGE } from './asn-database.ts';
import { HOSTING_NETWORKS, knownHostingNetwork, organizationLooksLikeHosting } from './hosting-networks.ts';
import { packageFile } from './package-files.ts';

const operatorNames: Readonly<Record<string, RegExp>> = {
  'Amazon Web Services': /Amazon/,
  Google: /Google/,
  'Microsoft (Azure)': /Microsoft/,
  'Oracle Cloud': /Oracle/,
  'IBM Cloud': /IBM/,
  'Alibaba Cloud': /Alibaba/,
  'Tencent Cloud': /Tencent/,
  'Huawei Cloud': /HUAWEI|Huawei/,
  DigitalOcean: /DigitalOcean/,
  'Akamai Connected Cloud (Linode)': /Akamai|Linode/,
  Vultr: /Constant Company|Vultr|Choopa/,
  'Fly.io': /Fly\.io/,
  Railway: /Railway/,
  Hetzner: /Hetzner/,
  OVHcloud: /OVH/,
  Scaleway: /Scaleway|Online SAS/,
  Contabo: /Contabo/,
  Leaseweb: /LeaseWeb|Leaseweb/,
  IONOS: /IONOS|1&1/,
  netcup: /netcup/,
  UpCloud: /UpCloud/,
  Hostinger: /Hostinger/,
  'G-Core Labs': /G-Core/,
  M247: /M247/,
  'Datacamp (CDN77)': /Datacamp|CDN77/,
  Zenlayer: /Zenlayer/,
  'Psychz Networks': /Psychz/,
  QuadraNet: /QuadraNet/,
  'ColoCrossing (HostPapa)': /ColoCrossing|HostPapa/,
  'FranTech (BuyVM)': /FranTech|BuyVM/,
  Hivelocity: /HIVELOCITY|Hivelocity/,
  'Latitude.sh': /Latitude|Maxihost/,
  Cloudflare: /Cloudflare/,
  Akamai: /Akamai/,
  Fastly: /Fastly/,
};

function organizationsByAsn(): Map<number, Set<string>> {
  const found = new Map<number, Set<string>>();
  for (const family of [4, 6]) {
    for (const line of readFileSync(packageFile(ASN_PACKAGE, `asn-ipv${family}-num.csv`), 'utf8').split('\n')) {
      const fields = line.split(',');
      if (fields.length < 4) continue;
      const asn = Number(fields[2]);
      const names = found.get(asn) ?? new Set<string>();
      names.add(fields.slice(3).join(',').replace(/^"|"$/g, ''));
      found.set(asn, names);
    }
  }
  return found;
}

describe('HOSTING_NETWORKS', () => {
  test('every ASN is announced in the shipped data under its operator\'s name', () => {
    const organizations = organizationsByAsn();
    for (const network of HOSTING_NETWORKS) {
      const pattern = operatorNames[network.provider];
      assert.ok(pattern, `a name pattern for ${network.provider}`);
      for (const asn of network.asns) {
        const names = [...(organizations.get(asn) ?? [])];
        assert.ok(names.length > 0, `AS${asn} (${network.provider}) is in the data`);
        assert.ok(names.some((name) => pattern.test(name)), `AS${asn} belongs to ${network.provider}: ${names.join(' / ')}`);
      }
    }
  });

  test('no ASN is listed twice', () => {
    const all = HOSTING_NETWORKS.flatMap((n) => n.asns);
    assert.equal(new Set(all).size, all.length);
  });

  test('known lookups, and consumer networks of the same companies are not listed', () => {
    assert.equal(knownHostingNetwork(16509)?.provider, 'Amazon Web Services');
    assert.equal(knownHostingNetwork(13335)?.kind, 'cdn');
    assert.equal(knownHostingNetwork(16591), null); // Google Fiber
    assert.equal(knownHostingNetwork(14593), null); // Starlink
    assert.equal(knownHostingNetwork(7922), null); // Comcast
  });
});

describe('organizationLooksLikeHosting', () => {
  test('hosting words in an organisation name', () => {
    for (const name of ['ZAP-Hosting GmbH', 'HOSTPALACE DATACENTERS LTD', 'Micron21 Datacentre Pty Ltd', 'UAB Cherry Servers', 'NAVER Cloud Corp.', 'VPS House Technology Group LLC']) {
      assert.equal(organizationLooksLikeHosting(name), true, name);
    }
  });
  test('ISPs and words that merely contain a hosting word', () => {
    for (const name of ['Comcast Cable Communications, LLC', 'Deutsche Telekom AG', 'Vodafone GmbH', 'Cloudflare, Inc.', 'Observer Networks', 'Ghosting Ltd']) {
      assert.equal(organizationLooksLikeHosting(name), false, name);
    }
  });
});
