import { decimalAmount, parseDecimalMoney } from '@app/contracts/client';

/**
 * The money input's logic (money-field.tsx): integer minor units in, the currency's decimal text out,
 * and the same parser the server uses to read the text back (so the browser refuses exactly what
 * the server would).
 */

/** 1250 in USD -> "12.50"; null (no price yet) -> "". */
export function moneyText(cents: number | null | undefined, currency: string): string {
  return cents == null ? '' : decimalAmount(cents, currency);
}

/** The problem with a typed price, or null when it reads as one (empty is allowed unless required). */
export function moneyProblem(text: string, currency: string, required = false): string | null {
  if (!text.trim()) return required ? 'Enter a price' : null;
  const parsed = parseDecimalMoney(text, currency);
  return parsed.ok ? null : parsed.message;
}

/** "12.5" -> "12.50", "1,299" -> "1299.00": the text as it will be saved; unchanged when not a price. */
export function normalizedMoneyText(text: string, currency: string): string {
  const parsed = text.trim() ? parseDecimalMoney(text, currency) : null;
  return parsed?.ok ? decimalAmount(parsed.minor, currency) : text;
}
