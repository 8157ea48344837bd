import { type AppLoadContext, data } from 'react-router';

/**
 * The /newsletter page action, which the footer's form posts to. Its own file so that the form can
 * name its answer's type without importing the route, which renders the form.
 */
export async function subscribeToNewsletter(request: Request, context: AppLoadContext) {
  const form = await request.formData();
  const email = String(form.get('email') ?? '').slice(0, 1000);
  const result = await context.api.subscribeToNewsletter({ email });
  return data({ result, email }, { status: result.ok ? 200 : result.status });
}
