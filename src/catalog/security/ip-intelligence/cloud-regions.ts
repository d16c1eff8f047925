// Public regions of the three largest clouds, each placed at the metro area its provider names for it,
// and the nearest of them to a point by great-circle distance.
//
// Sources: AWS "Regions and Availability Zones" (docs.aws.amazon.com/global-infrastructure), Google Cloud
// "Cloud locations" (cloud.google.com/about/locations), Azure "az account list-locations". Providers do
// not publish datacenter positions: coordinates are those of the named city, good to a few tens of km.
// Reviewed 2026-11; regions announced but not generally available are left out.
import { greatCircleKm } from './great-circle.ts';

export type CloudProvider = 'aws' | 'gcp' | 'azure';

export interface CloudRegion {
  provider: CloudProvider;
  region: string;
  location: string;
  latitude: number;
  longitude: number;
}

type Row = readonly [region: string, location: string, latitude: number, longitude: number];

const aws: readonly Row[] = [
  ['us-east-1', 'N. Virginia, US', 39.04, -77.49],
  ['us-east-2', 'Ohio, US', 39.96, -83.0],
  ['us-west-1', 'N. California, US', 37.35, -121.96],
  ['us-west-2', 'Oregon, US', 45.84, -119.7],
  ['ca-central-1', 'Montreal, CA', 45.5, -73.57],
  ['ca-west-1', 'Calgary, CA', 51.05, -114.07],
  ['mx-central-1', 'Querétaro, MX', 20.59, -100.39],
  ['sa-east-1', 'São Paulo, BR', -23.55, -46.63],
  ['eu-west-1', 'Dublin, IE', 53.35, -6.26],
  ['eu-west-2', 'London, GB', 51.51, -0.13],
  ['eu-west-3', 'Paris, FR', 48.86, 2.35],
  ['eu-central-1', 'Frankfurt, DE', 50.11, 8.68],
  ['eu-central-2', 'Zurich, CH', 47.38, 8.54],
  ['eu-north-1', 'Stockholm, SE', 59.33, 18.07],
  ['eu-south-1', 'Milan, IT', 45.46, 9.19],
  ['eu-south-2', 'Aragón, ES', 41.65, -0.88],
  ['il-central-1', 'Tel Aviv, IL', 32.09, 34.78],
  ['me-south-1', 'Bahrain, BH', 26.23, 50.59],
  ['me-central-1', 'UAE, AE', 25.2, 55.27],
  ['af-south-1', 'Cape Town, ZA', -33.92, 18.42],
  ['ap-east-1', 'Hong Kong, HK', 22.32, 114.17],
  ['ap-east-2', 'Taipei, TW', 25.03, 121.57],
  ['ap-south-1', 'Mumbai, IN', 19.08, 72.88],
  ['ap-south-2', 'Hyderabad, IN', 17.39, 78.49],
  ['ap-northeast-1', 'Tokyo, JP', 35.68, 139.69],
  ['ap-northeast-2', 'Seoul, KR', 37.57, 126.98],
  ['ap-northeast-3', 'Osaka, JP', 34.69, 135.5],
  ['ap-southeast-1', 'Singapore, SG', 1.35, 103.82],
  ['ap-southeast-2', 'Sydney, AU', -33.87, 151.21],
  ['ap-southeast-3', 'Jakarta, ID', -6.21, 106.85],
  ['ap-southeast-4', 'Melbourne, AU', -37.81, 144.96],
  ['ap-southeast-5', 'Kuala Lumpur, MY', 3.14, 101.69],
  ['ap-southeast-6', 'Auckland, NZ', -36.85, 174.76],
  ['ap-southeast-7', 'Bangkok, TH', 13.76, 100.5],
];

const gcp: readonly Row[] = [
  ['us-central1', 'Council Bluffs, Iowa, US', 41.26, -95.86],
  ['us-east1', 'Moncks Corner, South Carolina, US', 33.2, -80.01],
  ['us-east4', 'Ashburn, Virginia, US', 39.04, -77.49],
  ['us-east5', 'Columbus, Ohio, US', 39.96, -83.0],
  ['us-south1', 'Dallas, Texas, US', 32.78, -96.8],
  ['us-west1', 'The Dalles, Oregon, US', 45.59, -121.18],
  ['us-west2', 'Los Angeles, US', 34.05, -118.24],
  ['us-west3', 'Salt Lake City, US', 40.76, -111.89],
  ['us-west4', 'Las Vegas, US', 36.17, -115.14],
  ['northamerica-northeast1', 'Montréal, CA', 45.5, -73.57],
  ['northamerica-northeast2', 'Toronto, CA', 43.65, -79.38],
  ['northamerica-south1', 'Querétaro, MX', 20.59, -100.39],
  ['southamerica-east1', 'São Paulo, BR', -23.55, -46.63],
  ['southamerica-west1', 'Santiago, CL', -33.45, -70.67],
  ['europe-west1', 'St. Ghislain, BE', 50.45, 3.82],
  ['europe-west2', 'London, GB', 51.51, -0.13],
  ['europe-west3', 'Frankfurt, DE', 50.11, 8.68],
  ['europe-west4', 'Eemshaven, NL', 53.44, 6.83],
  ['europe-west6', 'Zurich, CH', 47.38, 8.54],
  ['europe-west8', 'Milan, IT', 45.46, 9.19],
  ['europe-west9', 'Paris, FR', 48.86, 2.35],
  ['europe-west10', 'Berlin, DE', 52.52, 13.4],
  ['europe-west12', 'Turin, IT', 45.07, 7.69],
  ['europe-north1', 'Hamina, FI', 60.57, 27.2],
  ['europe-north2', 'Stockholm, SE', 59.33, 18.07],
  ['europe-central2', 'Warsaw, PL', 52.23, 21.01],
  ['europe-southwest1', 'Madrid, ES', 40.42, -3.7],
  ['me-west1', 'Tel Aviv, IL', 32.09, 34.78],
  ['me-central1', 'Doha, QA', 25.29, 51.53],
  ['me-central2', 'Dammam, SA', 26.43, 50.1],
  ['africa-south1', 'Johannesburg, ZA', -26.2, 28.05],
  ['asia-east1', 'Changhua County, TW', 24.05, 120.52],
  ['asia-east2', 'Hong Kong, HK', 22.32, 114.17],
  ['asia-northeast1', 'Tokyo, JP', 35.68, 139.69],
  ['asia-northeast2', 'Osaka, JP', 34.69, 135.5],
  ['asia-northeast3', 'Seoul, KR', 37.57, 126.98],
  ['asia-south1', 'Mumbai, IN', 19.08, 72.88],
  ['asia-south2', 'Delhi, IN', 28.61, 77.21],
  ['asia-southeast1', 'Jurong West, SG', 1.34, 103.71],
  ['asia-southeast2', 'Jakarta, ID', -6.21, 106.85],
  ['australia-southeast1', 'Sydney, AU', -33.87, 151.21],
  ['australia-southeast2', 'Melbourne, AU', -37.81, 144.96],
];

const azure: readonly Row[] = [
  ['eastus', 'Virginia, US', 37.37, -79.82],
  ['eastus2', 'Virginia, US', 36.67, -78.39],
  ['centralus', 'Iowa, US', 41.59, -93.62],
  ['northcentralus', 'Illinois, US', 41.88, -87.63],
  ['southcentralus', 'Texas, US', 29.42, -98.49],
  ['westus', 'California, US', 37.78, -122.42],
  ['westus2', 'Washington, US', 47.23, -119.85],
  ['westus3', 'Phoenix, US', 33.45, -112.07],
  ['canadacentral', 'Toronto, CA', 43.65, -79.38],
  ['canadaeast', 'Quebec City, CA', 46.82, -71.22],
  ['mexicocentral', 'Querétaro, MX', 20.59, -100.39],
  ['brazilsouth', 'São Paulo, BR', -23.55, -46.63],
  ['northeurope', 'Dublin, IE', 53.35, -6.26],
  ['westeurope', 'Amsterdam, NL', 52.37, 4.9],
  ['uksouth', 'London, GB', 51.51, -0.13],
  ['ukwest', 'Cardiff, GB', 51.48, -3.18],
  ['francecentral', 'Paris, FR', 48.86, 2.35],
  ['germanywestcentral', 'Frankfurt, DE', 50.11, 8.68],
  ['switzerlandnorth', 'Zurich, CH', 47.38, 8.54],
  ['norwayeast', 'Oslo, NO', 59.91, 10.75],
  ['swedencentral', 'Gävle, SE', 60.67, 17.14],
  ['polandcentral', 'Warsaw, PL', 52.23, 21.01],
  ['italynorth', 'Milan, IT', 45.46, 9.19],
  ['spaincentral', 'Madrid, ES', 40.42, -3.7],
  ['uaenorth', 'Dubai, AE', 25.27, 55.32],
  ['qatarcentral', 'Doha, QA', 25.29, 51.53],
  ['southafricanorth', 'Johannesburg, ZA', -26.2, 28.05],
  ['centralindia', 'Pune, IN', 18.52, 73.86],
  ['southindia', 'Chennai, IN', 13.08, 80.27],
  ['eastasia', 'Hong Kong, HK', 22.32, 114.17],
  ['southeastasia', 'Singapore, SG', 1.35, 103.82],
  ['japaneast', 'Tokyo, JP', 35.68, 139.69],
  ['japanwest', 'Osaka, JP', 34.69, 135.5],
  ['koreacentral', 'Seoul, KR', 37.57, 126.98],
  ['australiaeast', 'Sydney, AU', -33.87, 151.21],
  ['australiasoutheast', 'Melbourne, AU', -37.81, 144.96],
];

const toRegions = (provider: CloudProvider, rows: readonly Row[]): CloudRegion[] =>
  rows.map(([region, location, latitude, longitude]) => ({ provider, region, location, latitude, longitude }));

export const CLOUD_REGIONS: readonly CloudRegion[] = [...toRegions('aws', aws), ...toRegions('gcp', gcp), ...toRegions('azure', azure)];

export interface RegionDistance {
  provider: CloudProvider;
  region: string;
  location: string;
  distanceKm: number;
}

/** The nearest region of each provider, nearest first (ties keep the order aws, gcp, azure). */
export function nearestCloudRegions(latitude: number, longitude: number): RegionDistance[] {
  const best = new Map<CloudProvider, { region: CloudRegion; km: number }>();
  for (const region of CLOUD_REGIONS) {
    const km = greatCircleKm(latitude, longitude, region.latitude, region.longitude);
    const current = best.get(region.provider);
    if (!current || km < current.km) best.set(region.provider, { region, km });
  }
  return [...best.values()]
    .sort((a, b) => a.km - b.km)
    .map(({ region, km }) => ({ provider: region.provider, region: region.region, location: region.location, distanceKm: Math.round(km) }));
}
