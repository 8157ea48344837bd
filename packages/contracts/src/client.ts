// The zod-free part of the contracts, for browser code (see display.ts).
export * from './display';
export * from './messages';
