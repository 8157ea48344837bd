/** Response headers carrying several Set-Cookie values (a plain object can hold only one). */
export function setCookies(cookies: string[]): Headers {
  const headers = new Headers();
  for (const c of cookies) headers.append('Set-Cookie', c);
  return headers;
}
