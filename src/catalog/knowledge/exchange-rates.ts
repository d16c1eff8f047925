import { z } from 'zod';
import { defineTool } from '../tool.ts';

const currencyCode = /^[A-Za-z]{3}$/;

export const exchangeRatesTool = defineTool({
  name: 'get_exchange_rates',
  title: 'Fiat exchange rates',
  description: 'Returns fiat exchange rates from one currency to several others, with the rates\' date and source.',
  price: '0.002',
  http: [{ method: 'GET', path: '/api/finance/fx', rename: { fromCurrency: 'from', toCurrencies: 'to' } }],
  input: z.object({
    fromCurrency: z.string().trim().regex(currencyCode, { message: 'expected a 3-letter ISO 4217 currency code such as "USD"' }).default('USD')
      .describe('ISO 4217 code of the base currency.'),
    toCurrencies: z.string().trim()
      .refine((v) => v.split(',').every((c) => currencyCode.test(c.trim())), { message: 'expected comma-separated 3-letter ISO 4217 codes such as "EUR,GBP"' })
      .default('EUR,GBP,JPY,CAD,AUD,CHF')
      .describe('Comma-separated ISO 4217 codes of the quote currencies.'),
  }),
  example: { fromCurrency: 'USD', toCurrencies: 'EUR,GBP,JPY' },
  annotations: { readOnlyHint: true, openWorldHint: true },
});
