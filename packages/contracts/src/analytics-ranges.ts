// The home's range presets, zod-free so the dashboard page can list them without zod (client.ts).

/** The home's range presets (decision 048): whole UTC days, today included. */
export const RANGE_PRESETS = ['today', '7d', '30d', '90d', 'month', 'custom'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];
export const RANGE_LABELS: Record<RangePreset, string> = {
  today: 'Today',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  '90d': 'Last 90 days',
  month: 'This month',
  custom: 'Custom range',
};
/** The longest custom range, in days (a year, a leap year included). */
export const MAX_RANGE_DAYS = 366;
