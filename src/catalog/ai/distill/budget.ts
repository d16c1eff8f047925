// How many tokens an answer may take: a share of the document's readable text that depends on the
// detail asked for, within bounds, or the caller's own `maxTokens`. Never more than the text itself
// (a summary longer than its document saves nothing).

export const DETAILS = ['brief', 'normal', 'full'] as const;
export type Detail = (typeof DETAILS)[number];

export interface BudgetRule {
  /** Share of the document's text tokens. */
  share: number;
  min: number;
  max: number;
}

export const BUDGETS: Record<Detail, BudgetRule> = {
  brief: { share: 0.05, min: 120, max: 800 },
  normal: { share: 0.15, min: 240, max: 3000 },
  full: { share: 0.25, min: 480, max: 6000 },
};

/** Bounds of the `maxTokens` input. */
export const MIN_MAX_TOKENS = 100;
export const MAX_OUTPUT_TOKENS = 8000;

export interface BudgetRequest {
  detail?: Detail;
  maxTokens?: number;
}

/** The answer's token budget for a document of `textTokens` readable tokens. */
export function outputBudget(textTokens: number, request: BudgetRequest = {}): number {
  const rule = BUDGETS[request.detail ?? 'normal'];
  const byDetail = Math.min(rule.max, Math.max(rule.min, Math.round(rule.share * textTokens)));
  // maxTokens alone sets the budget; with a detail it caps that detail's budget.
  const asked = request.maxTokens === undefined ? byDetail : request.detail === undefined ? request.maxTokens : Math.min(request.maxTokens, byDetail);
  return Math.max(MIN_MAX_TOKENS, Math.min(asked, MAX_OUTPUT_TOKENS, Math.max(textTokens, rule.min)));
}
