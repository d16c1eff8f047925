// X (Twitter) card markup: twitter:card, :site, :creator (with their :id), :title, :description,
// :image (:alt) and the player card's twitter:player tags. The first tag of each name wins.
import { absoluteHttpUrl } from '../page/page-urls.ts';
import { firstValue, pixels, type MetaEntry } from './meta-entries.ts';
import type { TwitterCard } from './metadata-types.ts';

export function readTwitterCard(entries: readonly MetaEntry[], base: string): TwitterCard {
  const playerUrl = absoluteHttpUrl(firstValue(entries, 'twitter:player'), base);
  return {
    card: firstValue(entries, 'twitter:card')?.toLowerCase() ?? null,
    site: firstValue(entries, 'twitter:site'),
    siteId: firstValue(entries, 'twitter:site:id'),
    creator: firstValue(entries, 'twitter:creator'),
    creatorId: firstValue(entries, 'twitter:creator:id'),
    title: firstValue(entries, 'twitter:title'),
    description: firstValue(entries, 'twitter:description'),
    // twitter:image:src is the older spelling, still common.
    image: absoluteHttpUrl(firstValue(entries, 'twitter:image', 'twitter:image:src'), base),
    imageAlt: firstValue(entries, 'twitter:image:alt'),
    player: playerUrl
      ? {
          url: playerUrl,
          width: pixels(firstValue(entries, 'twitter:player:width')),
          height: pixels(firstValue(entries, 'twitter:player:height')),
          stream: absoluteHttpUrl(firstValue(entries, 'twitter:player:stream'), base),
        }
      : null,
  };
}
