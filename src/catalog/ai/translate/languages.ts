// The languages translate_language offers: ISO 639-1 codes (two regional variants MyMemory and
// LibreTranslate both name), each with its English name and, where franc knows the language,
// the ISO 639-3 code it reports. MyMemory takes any ISO 639-1 / RFC 3066 code; a LibreTranslate
// instance offers the subset it has models for (its GET /languages) and refuses the rest.

export interface Language {
  code: string;
  name: string;
  /** The code franc reports for this language; absent when franc cannot recognise it. */
  franc?: string;
}

export const LANGUAGES: readonly Language[] = [
  { code: 'af', name: 'Afrikaans', franc: 'afr' },
  { code: 'am', name: 'Amharic', franc: 'amh' },
  { code: 'ar', name: 'Arabic', franc: 'arb' },
  { code: 'az', name: 'Azerbaijani', franc: 'azj' },
  { code: 'be', name: 'Belarusian', franc: 'bel' },
  { code: 'bg', name: 'Bulgarian', franc: 'bul' },
  { code: 'bn', name: 'Bengali', franc: 'ben' },
  { code: 'bs', name: 'Bosnian', franc: 'bos' },
  { code: 'ca', name: 'Catalan', franc: 'cat' },
  { code: 'cs', name: 'Czech', franc: 'ces' },
  { code: 'cy', name: 'Welsh' },
  { code: 'da', name: 'Danish', franc: 'dan' },
  { code: 'de', name: 'German', franc: 'deu' },
  { code: 'el', name: 'Greek', franc: 'ell' },
  { code: 'en', name: 'English', franc: 'eng' },
  { code: 'eo', name: 'Esperanto', franc: 'epo' },
  { code: 'es', name: 'Spanish', franc: 'spa' },
  { code: 'et', name: 'Estonian', franc: 'ekk' },
  { code: 'eu', name: 'Basque' },
  { code: 'fa', name: 'Persian', franc: 'pes' },
  { code: 'fi', name: 'Finnish', franc: 'fin' },
  { code: 'fr', name: 'French', franc: 'fra' },
  { code: 'ga', name: 'Irish' },
  { code: 'gl', name: 'Galician', franc: 'glg' },
  { code: 'gu', name: 'Gujarati', franc: 'guj' },
  { code: 'ha', name: 'Hausa', franc: 'hau' },
  { code: 'he', name: 'Hebrew', franc: 'heb' },
  { code: 'hi', name: 'Hindi', franc: 'hin' },
  { code: 'hr', name: 'Croatian', franc: 'hrv' },
  { code: 'hu', name: 'Hungarian', franc: 'hun' },
  { code: 'hy', name: 'Armenian', franc: 'hye' },
  { code: 'id', name: 'Indonesian', franc: 'ind' },
  { code: 'ig', name: 'Igbo', franc: 'ibo' },
  { code: 'is', name: 'Icelandic' },
  { code: 'it', name: 'Italian', franc: 'ita' },
  { code: 'ja', name: 'Japanese', franc: 'jpn' },
  { code: 'jv', name: 'Javanese', franc: 'jav' },
  { code: 'ka', name: 'Georgian', franc: 'kat' },
  { code: 'kk', name: 'Kazakh', franc: 'kaz' },
  { code: 'km', name: 'Khmer', franc: 'khm' },
  { code: 'kn', name: 'Kannada', franc: 'kan' },
  { code: 'ko', name: 'Korean', franc: 'kor' },
  { code: 'ky', name: 'Kyrgyz', franc: 'kir' },
  { code: 'lt', name: 'Lithuanian', franc: 'lit' },
  { code: 'lv', name: 'Latvian', franc: 'lvs' },
  { code: 'mg', name: 'Malagasy', franc: 'plt' },
  { code: 'mk', name: 'Macedonian', franc: 'mkd' },
  { code: 'ml', name: 'Malayalam', franc: 'mal' },
  { code: 'mr', name: 'Marathi', franc: 'mar' },
  { code: 'ms', name: 'Malay', franc: 'zlm' },
  { code: 'my', name: 'Burmese', franc: 'mya' },
  { code: 'ne', name: 'Nepali', franc: 'npi' },
  { code: 'nl', name: 'Dutch', franc: 'nld' },
  { code: 'no', name: 'Norwegian', franc: 'nob' },
  { code: 'pa', name: 'Punjabi', franc: 'pan' },
  { code: 'pl', name: 'Polish', franc: 'pol' },
  { code: 'ps', name: 'Pashto', franc: 'pbu' },
  { code: 'pt', name: 'Portuguese', franc: 'por' },
  { code: 'pt-BR', name: 'Portuguese (Brazil)' },
  { code: 'ro', name: 'Romanian', franc: 'ron' },
  { code: 'ru', name: 'Russian', franc: 'rus' },
  { code: 'rw', name: 'Kinyarwanda', franc: 'kin' },
  { code: 'si', name: 'Sinhala', franc: 'sin' },
  { code: 'sk', name: 'Slovak', franc: 'slk' },
  { code: 'sl', name: 'Slovenian', franc: 'slv' },
  { code: 'so', name: 'Somali', franc: 'som' },
  { code: 'sq', name: 'Albanian', franc: 'als' },
  { code: 'sr', name: 'Serbian', franc: 'srp' },
  { code: 'su', name: 'Sundanese', franc: 'sun' },
  { code: 'sv', name: 'Swedish', franc: 'swe' },
  { code: 'sw', name: 'Swahili', franc: 'swh' },
  { code: 'ta', name: 'Tamil', franc: 'tam' },
  { code: 'te', name: 'Telugu', franc: 'tel' },
  { code: 'th', name: 'Thai', franc: 'tha' },
  { code: 'tl', name: 'Tagalog', franc: 'tgl' },
  { code: 'tr', name: 'Turkish', franc: 'tur' },
  { code: 'uk', name: 'Ukrainian', franc: 'ukr' },
  { code: 'ur', name: 'Urdu', franc: 'urd' },
  { code: 'uz', name: 'Uzbek', franc: 'uzn' },
  { code: 'vi', name: 'Vietnamese', franc: 'vie' },
  { code: 'yo', name: 'Yoruba', franc: 'yor' },
  { code: 'zh', name: 'Chinese (Simplified)', franc: 'cmn' },
  { code: 'zh-TW', name: 'Chinese (Traditional)' },
  { code: 'zu', name: 'Zulu', franc: 'zul' },
];

/** What `sourceLang` may be instead of a code: detect the language offline. */
export const AUTO = 'auto';

const byLowerCode = new Map(LANGUAGES.map((language) => [language.code.toLowerCase(), language]));
const byFranc = new Map(LANGUAGES.filter((language) => language.franc).map((language) => [language.franc!, language]));

/** The language a code names, in any letter case ("PT-br" is pt-BR); undefined when it is not offered. */
export function languageOf(code: string): Language | undefined {
  return byLowerCode.get(code.trim().toLowerCase());
}

/** The language franc's ISO 639-3 code stands for, when it is one of ours. */
export function languageOfFranc(code3: string): Language | undefined {
  return byFranc.get(code3);
}

/** The ISO 639-3 codes franc may answer with, narrowed to the languages offered here. */
export const FRANC_CODES: readonly string[] = [...byFranc.keys()];

/** The codes, for messages that list what is accepted. */
export const SUPPORTED_CODES: readonly string[] = LANGUAGES.map((language) => language.code);

/** "pt-BR" and "zh-TW" are pt and zh to the detector: variants of one written language. */
export function baseCode(code: string): string {
  return code.split('-')[0]!;
}
