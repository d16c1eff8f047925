import { z } from 'zod';
import { languageCode, text } from '../fields.ts';
import { defineTool } from '../tool.ts';

export const translateTool = defineTool({
  name: 'translate_language',
  title: 'Translate text',
  description: 'Translates text between 50+ languages and reports the detected source language.',
  price: '0.005',
  http: [{ method: 'POST', path: '/api/ai/translate' }],
  input: z.object({
    text: text('The text to translate.', 5_000),
    sourceLang: languageCode('ISO code of the text\'s language.').default('en'),
    targetLang: languageCode('ISO code of the language to translate into.').default('es'),
  }),
  example: { text: 'Good morning, how are you?', sourceLang: 'en', targetLang: 'es' },
  annotations: { readOnlyHint: true, openWorldHint: true },
});
