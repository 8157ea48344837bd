import { redirect } from 'react-router';

export function loader() {
  return redirect('/manage-store/settings/theme');
}
