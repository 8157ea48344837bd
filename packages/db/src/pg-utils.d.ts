// node-postgres's value conversion, which @types/pg does not declare (it is public in pg's exports).
declare module 'pg/lib/utils.js' {
  const utils: { prepareValue(value: unknown): string | Buffer | null };
  export default utils;
}
