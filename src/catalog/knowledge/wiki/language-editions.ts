// The Wikipedia language editions, as host names use them ("en" for en.wikipedia.org). Source:
// Wikimedia's production configuration, wikimedia/operations-mediawiki-config `dblists/wikipedia.dblist`
// at commit 349dc0945240da7717da209fd55129e04a4c5507 (2026-08-21) — the list SiteMatrix serves —
// without the test wikis (testwiki, test2wiki, tenwiki); database names map to hosts by dropping
// "wiki" and turning "_" into "-", except be_x_oldwiki, which `wmf-config/InitialiseSettings.php`
// serves at be-tarask.wikipedia.org. Closed (read-only) editions are included: their articles
// are still served.

export const WIKIPEDIA_LANGUAGE_EDITIONS: ReadonlySet<string> = new Set([
  'aa', 'ab', 'ace', 'ady', 'af', 'ak', 'als', 'alt', 'am', 'ami', 'an', 'ang',
  'ann', 'anp', 'ar', 'arc', 'ary', 'arz', 'as', 'ast', 'atj', 'av', 'avk', 'awa',
  'ay', 'az', 'azb', 'ba', 'ban', 'bar', 'bat-smg', 'bbc', 'bcl', 'bdr', 'be', 'be-tarask',
  'bew', 'bg', 'bh', 'bi', 'bjn', 'blk', 'bm', 'bn', 'bo', 'bol', 'bpy', 'br',
  'bs', 'btm', 'bug', 'bxr', 'ca', 'cbk-zam', 'cdo', 'ce', 'ceb', 'ch', 'cho', 'chr',
  'chy', 'ckb', 'co', 'cr', 'crh', 'cs', 'csb', 'cu', 'cv', 'cy', 'da', 'dag',
  'de', 'dga', 'din', 'diq', 'dsb', 'dtp', 'dty', 'dv', 'dz', 'ee', 'el', 'eml',
  'en', 'eo', 'es', 'et', 'eu', 'ext', 'fa', 'fat', 'ff', 'fi', 'fiu-vro', 'fj',
  'fo', 'fon', 'fr', 'frp', 'frr', 'fur', 'fy', 'ga', 'gag', 'gan', 'gcr', 'gd',
  'gl', 'glk', 'gn', 'gom', 'gor', 'got', 'gpe', 'gu', 'guc', 'gur', 'guw', 'gv',
  'ha', 'hak', 'haw', 'he', 'hi', 'hif', 'ho', 'hr', 'hsb', 'ht', 'hu', 'hy',
  'hyw', 'hz', 'ia', 'iba', 'id', 'ie', 'ig', 'igl', 'ii', 'ik', 'ilo', 'inh',
  'io', 'is', 'isv', 'it', 'iu', 'ja', 'jam', 'jbo', 'jv', 'ka', 'kaa', 'kab',
  'kai', 'kaj', 'kbd', 'kbp', 'kcg', 'kg', 'kge', 'ki', 'kj', 'kk', 'kl', 'km',
  'kn', 'knc', 'ko', 'koi', 'kr', 'krc', 'ks', 'ksh', 'ku', 'kus', 'kv', 'kw',
  'ky', 'la', 'lad', 'lb', 'lbe', 'lez', 'lfn', 'lg', 'li', 'lij', 'lld', 'lmo',
  'ln', 'lo', 'lrc', 'lt', 'ltg', 'lv', 'mad', 'mag', 'mai', 'map-bms', 'mdf', 'mg',
  'mh', 'mhr', 'mi', 'min', 'mk', 'ml', 'mn', 'mni', 'mnw', 'mos', 'mr', 'mrj',
  'ms', 'mt', 'mus', 'mwl', 'my', 'myv', 'mzn', 'na', 'nah', 'nap', 'nds', 'nds-nl',
  'ne', 'new', 'ng', 'nia', 'nl', 'nn', 'no', 'nov', 'nqo', 'nr', 'nrm', 'nso',
  'nup', 'nv', 'ny', 'oc', 'olo', 'om', 'or', 'os', 'pa', 'pag', 'pam', 'pap',
  'pcd', 'pcm', 'pdc', 'pfl', 'pi', 'pih', 'pl', 'pms', 'pnb', 'pnt', 'ppl', 'ps',
  'pt', 'pwn', 'qu', 'rki', 'rm', 'rmy', 'rn', 'ro', 'roa-rup', 'roa-tara', 'rsk', 'ru',
  'rue', 'rw', 'sa', 'sah', 'sat', 'sc', 'scn', 'sco', 'sd', 'se', 'sg', 'sh',
  'shi', 'shn', 'si', 'simple', 'sk', 'skr', 'sl', 'sm', 'smn', 'sn', 'so', 'sq',
  'sr', 'srn', 'ss', 'st', 'stq', 'su', 'sv', 'sw', 'syl', 'szl', 'szy', 'ta',
  'tay', 'tcy', 'tdd', 'te', 'tet', 'tg', 'th', 'ti', 'tig', 'tk', 'tl', 'tly',
  'tn', 'to', 'tok', 'tpi', 'tr', 'trv', 'ts', 'tt', 'tum', 'tw', 'ty', 'tyv',
  'udm', 'ug', 'uk', 'ur', 'uz', 've', 'vec', 'vep', 'vi', 'vls', 'vo', 'wa',
  'war', 'wo', 'wuu', 'xal', 'xh', 'xmf', 'yi', 'yo', 'za', 'zea', 'zgh', 'zh',
  'zh-classical', 'zh-min-nan', 'zh-yue', 'zu',
]);

export function isWikipediaLanguage(code: string): boolean {
  return WIKIPEDIA_LANGUAGE_EDITIONS.has(code);
}
