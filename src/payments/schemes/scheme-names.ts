// The x402 schemes toolgate can offer (TOOLGATE_SCHEMES), in the order a 402 lists them by default:
// `exact` first, so that clients knowing only `exact` pick it as before.
export const schemeNames = ['exact', 'batch-settlement'] as const;
export type SchemeName = (typeof schemeNames)[number];
