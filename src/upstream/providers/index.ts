// Every provider the gateway may call, declared once each beside its client. The README's
// configuration rows, the start-up check of the settings and /health are derived from this list.
import type { ProviderDefinition } from '../provider.ts';
import { baseRpc, baseSepoliaRpc } from './base-rpc.ts';
import { brave } from './brave.ts';
import { dexscreener } from './dexscreener.ts';
import { doh } from './doh.ts';
import { duckduckgo } from './duckduckgo.ts';
import { frankfurter } from './frankfurter.ts';
import { gdelt } from './gdelt.ts';
import { hnAlgolia } from './hn-algolia.ts';
import { libretranslate } from './libretranslate.ts';
import { metno } from './metno.ts';
import { mymemory } from './mymemory.ts';
import { nominatim } from './nominatim.ts';
import { rdap } from './rdap.ts';
import { searxng } from './searxng.ts';
import { stackexchange } from './stackexchange.ts';
import { wayback } from './wayback.ts';
import { wikipedia } from './wikipedia.ts';

export const providers: readonly ProviderDefinition[] = [searxng, brave, duckduckgo, wayback, wikipedia, hnAlgolia, stackexchange, gdelt, libretranslate, mymemory, metno, nominatim, frankfurter, doh, rdap, baseRpc, baseSepoliaRpc, dexscreener];
