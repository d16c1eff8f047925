// Holiday calendars of the four exchanges for 2026 and 2027: the weekdays each is closed, and its
// half days. Exchange holidays are not public holidays (the NYSE closes on Good Friday and opens on
// Columbus Day; the TSE closes 31 December to 3 January; the HKEX follows Hong Kong's lunar
// holidays and closes at noon on three eves), so each list is the exchange's own, typed from the
// publication named above it. Weekend days are left out: a weekend is closed anyway.
// The tests check these lists against independent derivations (rules, the date-holidays package).
// Unscheduled closures (a typhoon signal in Hong Kong, a national day of mourning in the US) cannot
// be known in advance and are not here.

export interface ExchangeCalendar {
  /** Years the lists cover completely. Outside them only weekends are known. */
  years: readonly number[];
  source: string;
  /** ISO date -> name, for weekdays the exchange is closed all day. */
  holidays: ReadonlyMap<string, string>;
  /** ISO date -> name, for weekdays with an early close (see each exchange's half-day session). */
  halfDays: ReadonlyMap<string, string>;
}

const calendar = (source: string, holidays: [string, string][], halfDays: [string, string][]): ExchangeCalendar => ({
  years: [2026, 2027],
  source,
  holidays: new Map(holidays),
  halfDays: new Map(halfDays),
});

/** NYSE: "Holidays & Trading Hours", https://www.nyse.com/markets/hours-calendars (NYSE Rule 7.2). Early closes at 13:00 ET. */
export const NYSE_CALENDAR = calendar('NYSE Holidays & Trading Hours, https://www.nyse.com/markets/hours-calendars', [
  ['2026-01-01', "New Year's Day"],
  ['2026-01-19', 'Martin Luther King, Jr. Day'],
  ['2026-02-16', "Washington's Birthday"],
  ['2026-04-03', 'Good Friday'],
  ['2026-05-25', 'Memorial Day'],
  ['2026-06-19', 'Juneteenth National Independence Day'],
  ['2026-07-03', 'Independence Day (observed)'],
  ['2026-09-07', 'Labor Day'],
  ['2026-11-26', 'Thanksgiving Day'],
  ['2026-12-25', 'Christmas Day'],
  ['2027-01-01', "New Year's Day"],
  ['2027-01-18', 'Martin Luther King, Jr. Day'],
  ['2027-02-15', "Washington's Birthday"],
  ['2027-03-26', 'Good Friday'],
  ['2027-05-31', 'Memorial Day'],
  ['2027-06-18', 'Juneteenth National Independence Day (observed)'],
  ['2027-07-05', 'Independence Day (observed)'],
  ['2027-09-06', 'Labor Day'],
  ['2027-11-25', 'Thanksgiving Day'],
  ['2027-12-24', 'Christmas Day (observed)'],
  // 1 January 2028 is a Saturday: by Rule 7.2 the NYSE does not close on Friday 31 December 2027.
], [
  ['2026-11-27', 'Day after Thanksgiving'],
  ['2026-12-24', 'Christmas Eve'],
  ['2027-11-26', 'Day after Thanksgiving'],
]);

/**
 * LSE: "Business days" of the London Stock Exchange, https://www.londonstockexchange.com/equities-trading/business-days
 * (the England and Wales bank holidays, https://www.gov.uk/bank-holidays). Early closes at 12:30 UK time.
 */
export const LSE_CALENDAR = calendar('London Stock Exchange business days, https://www.londonstockexchange.com/equities-trading/business-days', [
  ['2026-01-01', "New Year's Day"],
  ['2026-04-03', 'Good Friday'],
  ['2026-04-06', 'Easter Monday'],
  ['2026-05-04', 'Early May bank holiday'],
  ['2026-05-25', 'Spring bank holiday'],
  ['2026-08-31', 'Summer bank holiday'],
  ['2026-12-25', 'Christmas Day'],
  ['2026-12-28', 'Boxing Day (substitute day)'],
  ['2027-01-01', "New Year's Day"],
  ['2027-03-26', 'Good Friday'],
  ['2027-03-29', 'Easter Monday'],
  ['2027-05-03', 'Early May bank holiday'],
  ['2027-05-31', 'Spring bank holiday'],
  ['2027-08-30', 'Summer bank holiday'],
  ['2027-12-27', 'Christmas Day (substitute day)'],
  ['2027-12-28', 'Boxing Day (substitute day)'],
], [
  ['2026-12-24', 'Christmas Eve'],
  ['2026-12-31', "New Year's Eve"],
  ['2027-12-24', 'Christmas Eve'],
  ['2027-12-31', "New Year's Eve"],
]);

/**
 * TSE: JPX "Market holidays", https://www.jpx.co.jp/english/corporate/about-jpx/calendar/index.html
 * (Japan's national holidays, and 31 December to 3 January). No half days.
 */
export const TSE_CALENDAR = calendar('JPX market holidays, https://www.jpx.co.jp/english/corporate/about-jpx/calendar/index.html', [
  ['2026-01-01', "New Year's Day"],
  ['2026-01-02', 'Market holiday (New Year)'],
  ['2026-01-12', 'Coming of Age Day'],
  ['2026-02-11', 'National Foundation Day'],
  ['2026-02-23', "Emperor's Birthday"],
  ['2026-03-20', 'Vernal Equinox Day'],
  ['2026-04-29', 'Showa Day'],
  ['2026-05-04', 'Greenery Day'],
  ['2026-05-05', "Children's Day"],
  ['2026-05-06', 'Substitute holiday (Constitution Memorial Day)'],
  ['2026-07-20', 'Marine Day'],
  ['2026-08-11', 'Mountain Day'],
  ['2026-09-21', 'Respect for the Aged Day'],
  ['2026-09-22', "Citizens' Holiday"],
  ['2026-09-23', 'Autumnal Equinox Day'],
  ['2026-10-12', 'Sports Day'],
  ['2026-11-03', 'Culture Day'],
  ['2026-11-23', 'Labor Thanksgiving Day'],
  ['2026-12-31', 'Market holiday (New Year)'],
  ['2027-01-01', "New Year's Day"],
  ['2027-01-11', 'Coming of Age Day'],
  ['2027-02-11', 'National Foundation Day'],
  ['2027-02-23', "Emperor's Birthday"],
  ['2027-03-22', 'Substitute holiday (Vernal Equinox Day)'],
  ['2027-04-29', 'Showa Day'],
  ['2027-05-03', 'Constitution Memorial Day'],
  ['2027-05-04', 'Greenery Day'],
  ['2027-05-05', "Children's Day"],
  ['2027-07-19', 'Marine Day'],
  ['2027-08-11', 'Mountain Day'],
  ['2027-09-20', 'Respect for the Aged Day'],
  ['2027-09-23', 'Autumnal Equinox Day'],
  ['2027-10-11', 'Sports Day'],
  ['2027-11-03', 'Culture Day'],
  ['2027-11-23', 'Labor Thanksgiving Day'],
  ['2027-12-31', 'Market holiday (New Year)'],
], []);

/**
 * HKEX: "Trading Calendar and Holiday Schedule", https://www.hkex.com.hk/Services/Trading-hours-and-Severe-Weather-Arrangements/Trading-Hours/Securities-Market
 * (Hong Kong's general holidays, https://www.gov.hk/en/about/abouthk/holiday/). Half days (no
 * afternoon session) on the eves of Christmas, New Year and Lunar New Year that fall on weekdays.
 */
export const HKEX_CALENDAR = calendar('HKEX trading calendar, https://www.hkex.com.hk/Services/Trading-hours-and-Severe-Weather-Arrangements/Trading-Hours/Securities-Market', [
  ['2026-01-01', 'The first day of January'],
  ['2026-02-17', 'Lunar New Year\'s Day'],
  ['2026-02-18', 'The second day of Lunar New Year'],
  ['2026-02-19', 'The third day of Lunar New Year'],
  ['2026-04-03', 'Good Friday'],
  ['2026-04-06', 'The day following Ching Ming Festival'],
  ['2026-04-07', 'The day following Easter Monday'],
  ['2026-05-01', 'Labour Day'],
  ['2026-05-25', 'The day following the Birthday of the Buddha'],
  ['2026-06-19', 'Tuen Ng Festival'],
  ['2026-07-01', 'Hong Kong Special Administrative Region Establishment Day'],
  ['2026-10-01', 'National Day'],
  ['2026-10-19', 'The day following Chung Yeung Festival'],
  ['2026-12-25', 'Christmas Day'],
  ['2027-01-01', 'The first day of January'],
  ['2027-02-08', 'The third day of Lunar New Year'],
  ['2027-02-09', 'The fourth day of Lunar New Year'],
  ['2027-03-26', 'Good Friday'],
  ['2027-03-29', 'Easter Monday'],
  ['2027-04-05', 'Ching Ming Festival'],
  ['2027-05-13', 'The Birthday of the Buddha'],
  ['2027-06-09', 'Tuen Ng Festival'],
  ['2027-07-01', 'Hong Kong Special Administrative Region Establishment Day'],
  ['2027-09-16', 'The day following the Chinese Mid-Autumn Festival'],
  ['2027-10-01', 'National Day'],
  ['2027-10-08', 'Chung Yeung Festival'],
  ['2027-12-27', 'The first weekday after Christmas Day'],
], [
  ['2026-02-16', "Lunar New Year's Eve"],
  ['2026-12-24', 'Christmas Eve'],
  ['2026-12-31', "New Year's Eve"],
  ['2027-02-05', "Lunar New Year's Eve"],
  ['2027-12-24', 'Christmas Eve'],
  ['2027-12-31', "New Year's Eve"],
]);
