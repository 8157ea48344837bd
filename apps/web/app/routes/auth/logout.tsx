import { redirect } from 'react-router';

// Sessions arrive with the accounts work; until then there is nothing to end.
export function action() {
  return redirect('/');
}

export function loader() {
  return redirect('/');
}
