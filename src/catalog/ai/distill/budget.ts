// How many tokens an answer may take: a share of the document's readable text that depends on the
// detail asked for, within bounds, or the caller's own `maxTokens`. A page sent with much markup
// (HTML) gets at least a fifth of that share of what was sent. Never more than the text itself (a
// summary longer than its document saves nothing).

export const DETAILS = ['brief', 'normal', 'full'] as const;
export type Detail = (typeof DETAILS)[number];

export interface BudgetRule {
  /** Share of the document's text tokens. */
  share: number;
  min: number;
  max: number;
}

export const BUDGETS: Record<Detail, BudgetRule> = {
  brief: { share: 0.07, min: 150, max: 1000 },
  normal: { share: 0.2, min: 300, max: 4000 },
  full: { share: 0.35, min: 600, max: 8000 },
};

/** Bounds of the `maxTokens` input. */
export const MIN_MAX_TOKENS = 100;
export const MAX_OUTPUT_TOKENS = 8000;

export interface BudgetRequest {
  detail?: Detail;
  maxTokens?: number;
}

/** Share of the sent tokens, relative to the text share, an answer may take at least. */
const INPUT_SHARE = 0.2;

/** The answer's token budget for a document of `textTokens` readable tokens, sent as `inputTokens`. */
export function outputBudget(textTokens: number, request: BudgetRequest = {}, inputTokens = textTokens): number {
  const rule = BUDGETS[request.detail ?? 'normal'];
  const byDetail = Math.min(rule.max, Math.max(rule.min, Math.round(rule.share * textTokens), Math.round(rule.share * INPUT_SHARE * inputTokens)));
  // maxTokens alone sets the budget; with a detail it caps that detail's budget.
  const asked = request.maxTokens === undefined ? byDetail : request.detail === undefined ? request.maxTokens : Math.min(request.maxTokens, byDetail);
  return Math.max(MIN_MAX_TOKENS, Math.min(asked, MAX_OUTPUT_TOKENS, Math.max(textTokens, rule.min)));
}
